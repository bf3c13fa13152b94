public import FoundationEssentials
public import WebAuthn

/// A new passkey, shaped like Apple's `ASAuthorizationPlatformPublicKeyCredentialRegistration`:
/// what an Auth0 passkey signup or enrollment sends (it is a ``SignupPasskey``).
public struct PlatformCredentialRegistration: SignupPasskey, Hashable {
    /// The registration as WebAuthn JSON, for relying parties that take it whole.
    public let response: RegistrationResponseJSON

    /// Wraps a registration response.
    ///
    /// - Parameter response: the registration response.
    public init(_ response: RegistrationResponseJSON) {
        self.response = response
    }

    public var credentialID: Data { response.credentialID }
    public var attachment: AuthenticatorAttachment? { response.attachment }
    public var rawClientDataJSON: Data { response.rawClientDataJSON }
    public var rawAttestationObject: Data { response.rawAttestationObject }
}
