public import WebAuthn

/// What `authenticatorGetAssertion` answers (CTAP 2.1 §6.2.2).
public struct GetAssertionResponse: Sendable, Hashable {
    /// The credential that signed (`credential.id`).
    public let credentialID: [UInt8]
    /// The authenticator data that was signed (`authData`).
    public let authenticatorData: AuthenticatorData
    /// The signature over `authData ‖ clientDataHash` (`signature`).
    public let signature: [UInt8]
    /// The user handle (`user.id`); always present for a discoverable credential.
    public let userHandle: [UInt8]?
    /// The attachment of the authenticator that answered, when it differs from
    /// ``AuthenticatorInfo/attachment`` (not CTAP: one software authenticator answers for the
    /// credentials of every profile in its store); `nil` for the usual case.
    public let attachment: AuthenticatorAttachment?
    /// The credential's `largeBlobKey` (CTAP 2.1 §6.2 response member 0x07) when asked for and
    /// supported.
    public let largeBlobKey: SecretKey?

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - credentialID: the credential that signed.
    ///   - authenticatorData: the signed authenticator data.
    ///   - signature: the signature.
    ///   - userHandle: the user handle, if the authenticator returns it.
    ///   - attachment: the attachment, when it differs from the authenticator's.
    ///   - largeBlobKey: the credential's `largeBlobKey`, when asked for.
    public init(
        credentialID: [UInt8], authenticatorData: AuthenticatorData, signature: [UInt8], userHandle: [UInt8]?,
        attachment: AuthenticatorAttachment? = nil, largeBlobKey: SecretKey? = nil
    ) {
        self.credentialID = credentialID
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.attachment = attachment
        self.largeBlobKey = largeBlobKey
    }
}
