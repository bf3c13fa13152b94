public import FoundationEssentials

/// Any registration response, from this library's authenticator, another backend or a browser's
/// `toJSON()`, drives Auth0's signup and enrollment (Auth0 passkey API spec §4.2).
///
/// `credentialID` is `rawId`, and an attachment other than `platform` or `cross-platform` reads
/// as `nil` (unknown), as the SDK's `stringValue` does.
extension RegistrationResponseJSON: NewPasskey {
    /// The bytes of `rawId`.
    public var credentialID: Data { Data(rawId.bytes) }

    /// `authenticatorAttachment` when it is `platform` or `cross-platform`, else `nil`.
    public var attachment: AuthenticatorAttachment? { authenticatorAttachment?.auth0Attachment }

    /// The bytes of `response.clientDataJSON`.
    public var rawClientDataJSON: Data { Data(response.clientDataJSON.bytes) }

    /// The bytes of `response.attestationObject`.
    public var rawAttestationObject: Data { Data(response.attestationObject.bytes) }
}

extension RegistrationResponseJSON: SignupPasskey {}

extension AuthenticatorAttachment {
    /// This attachment if Auth0 knows it (`platform`, `cross-platform`), else `nil` (spec §4.2).
    var auth0Attachment: Self? {
        self == .platform || self == .crossPlatform ? self : nil
    }
}
