public import FoundationEssentials
public import WebAuthn

/// A passkey sign-in, shaped like Apple's `ASAuthorizationPlatformPublicKeyCredentialAssertion`:
/// what an Auth0 passkey login sends (it is a ``LoginPasskey``).
public struct PlatformCredentialAssertion: LoginPasskey, Hashable {
    /// The assertion as WebAuthn JSON, for relying parties that take it whole.
    public let response: AuthenticationResponseJSON
    private let login: LoginPasskeyResponse

    /// Wraps an authentication response.
    ///
    /// - Parameter response: the authentication response.
    /// - Throws: `WebAuthnError` with `malformed-json` when it has no user handle (a platform
    ///   passkey always returns one).
    public init(_ response: AuthenticationResponseJSON) throws(WebAuthnError) {
        self.response = response
        self.login = try LoginPasskeyResponse(response)
    }

    public var userID: Data { login.userID }
    public var credentialID: Data { login.credentialID }
    public var attachment: AuthenticatorAttachment? { login.attachment }
    public var rawClientDataJSON: Data { login.rawClientDataJSON }
    public var rawAuthenticatorData: Data { login.rawAuthenticatorData }
    public var signature: Data { login.signature }
}
