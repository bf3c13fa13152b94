import PasskeyAuthenticator
import PasskeyKit
import WebAuthn

/// What `passkey login` reports.
struct LoginOutcome: Encodable {
    let session: SessionReport
    let credentialID: String
    /// The account name stored with the passkey.
    let passkeyUser: String?
    let rpID: String
    /// How many passkeys the store holds for the RP ID.
    let candidates: Int
    /// Whether the most recent of several was taken because no `--user` or `--credential` said.
    let pickedMostRecent: Bool

    init(_ result: LogInResult, choice: AccountChoice, showTokens: Bool) {
        session = SessionReport(user: result.user, credentials: result.credentials, showTokens: showTokens)
        credentialID = result.assertion.id
        passkeyUser = result.passkeyUserName
        rpID = result.rpID
        candidates = result.candidates.count
        pickedMostRecent = choice == .mostRecent && result.candidates.count > 1
    }

    enum CodingKeys: String, CodingKey {
        case session, candidates
        case credentialID = "credential_id"
        case passkeyUser = "passkey_user"
        case rpID = "rp_id"
        case pickedMostRecent = "picked_most_recent"
    }

    var text: String {
        var lines = ["Logged in as \(session.user.text) with passkey \(credentialID) for \(rpID)."]
        if pickedMostRecent {
            lines.append(
                "The store holds \(candidates) passkeys for \(rpID); the most recent (\(passkeyUser ?? "?")) was used. "
                    + "Pick another with --user NAME or --credential ID.")
        }
        lines.append(session.details)
        return lines.joined(separator: "\n")
    }
}
