import PasskeyKit
import WebAuthn

/// What `passkey signup` reports.
struct SignupOutcome: Encodable {
    let session: SessionReport
    let credentialID: String
    let rpID: String
    /// The passkey's registration response, for `passkey demo` to inspect; not printed.
    let response: RegistrationResponseJSON

    enum CodingKeys: String, CodingKey {
        case session, rpID = "rp_id", credentialID = "credential_id"
    }

    init(_ result: SignUpResult, showTokens: Bool) {
        session = SessionReport(user: result.user, credentials: result.credentials, showTokens: showTokens)
        credentialID = result.registration.id
        rpID = result.rpID
        response = result.registration
    }

    var text: String {
        "Signed up \(session.user.text) with a new passkey \(credentialID) for \(rpID).\n\(session.details)"
    }
}
