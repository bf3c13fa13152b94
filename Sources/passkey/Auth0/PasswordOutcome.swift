import Auth0Passkeys
import PasskeyKit

/// What `passkey signup --password-stdin` and `passkey login --password-stdin` report: the
/// session, never the password.
struct PasswordOutcome: Encodable {
    let session: SessionReport
    /// Whether the user was created by this command.
    let signedUp: Bool
    /// Whether the tenant says the email is verified, for a new user.
    let emailVerified: Bool?

    enum CodingKeys: String, CodingKey {
        case session
        case signedUp = "signed_up"
        case emailVerified = "email_verified"
    }

    init(_ result: PasswordSignUpResult, showTokens: Bool) {
        session = SessionReport(user: result.user, credentials: result.credentials, showTokens: showTokens)
        signedUp = true
        emailVerified = result.created.verified
    }

    init(_ result: PasswordLogInResult, showTokens: Bool) {
        session = SessionReport(user: result.user, credentials: result.credentials, showTokens: showTokens)
        signedUp = false
        emailVerified = nil
    }

    var text: String {
        let what = signedUp ? "Signed up" : "Logged in as"
        return "\(what) \(session.user.text) with a password.\n\(session.details)"
    }
}
