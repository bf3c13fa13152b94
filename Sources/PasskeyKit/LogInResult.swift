public import Auth0Passkeys
public import PasskeyAuthenticator
public import WebAuthn

/// What a login gives: the user, the session's credentials and which passkey signed.
public struct LogInResult: Sendable {
    /// The user, from the ID token.
    public let user: UserInfo
    /// The tokens, kept as the user's session.
    public let credentials: Credentials
    /// The assertion the tenant verified.
    public let assertion: AuthenticationResponseJSON
    /// The RP ID of the login.
    public let rpID: String
    /// The device's passkeys for the RP ID, newest first, as the simulated user chose among them;
    /// empty when the device has no store it can read.
    public let candidates: [CredentialSummary]

    /// The credential ID of the passkey that signed.
    public var credentialID: [UInt8] { assertion.rawId.bytes }

    /// The account name the device keeps with the passkey that signed.
    public var passkeyUserName: String? { candidates.first { $0.id == credentialID }?.userName }
}
