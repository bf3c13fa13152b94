public import Auth0Passkeys
public import WebAuthn

/// What a signup gives: the new user, the session's credentials and the new passkey.
public struct SignUpResult: Sendable {
    /// The user, from the ID token.
    public let user: UserInfo
    /// The tokens, kept as the user's session.
    public let credentials: Credentials
    /// The new passkey's registration response, as the tenant verified it.
    public let registration: RegistrationResponseJSON
    /// The RP ID the passkey is for.
    public let rpID: String

    /// The new passkey's credential ID.
    public var credentialID: [UInt8] { registration.rawId.bytes }
}
