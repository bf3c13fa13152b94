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

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - credentialID: the credential that signed.
    ///   - authenticatorData: the signed authenticator data.
    ///   - signature: the signature.
    ///   - userHandle: the user handle, if the authenticator returns it.
    public init(credentialID: [UInt8], authenticatorData: AuthenticatorData, signature: [UInt8], userHandle: [UInt8]?) {
        self.credentialID = credentialID
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}
