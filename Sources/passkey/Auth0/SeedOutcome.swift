import Auth0Passkeys
import PasskeyKit
import WebAuthn

/// What `passkey seed` reports: one entry per seeded user.
struct SeedOutcome: Encodable {
    struct User: Encodable {
        let email: String
        let userID: String
        let created: Bool
        let methodID: String
        let credentialID: String
        let rpID: String

        enum CodingKeys: String, CodingKey {
            case email, created
            case userID = "user_id"
            case methodID = "method_id"
            case credentialID = "credential_id"
            case rpID = "rp_id"
        }
    }

    let users: [User]

    init(_ results: [SeedResult]) {
        users = results.map { result in
            User(
                email: result.user.email ?? "", userID: result.user.userId,
                created: result.created, methodID: result.method.id, credentialID: result.registration.id,
                rpID: result.rpID)
        }
    }

    var text: String {
        users.map { user in
            "Seeded \(user.email) (\(user.userID), \(user.created ? "new" : "existing")) with a passkey "
                + "\(user.credentialID) for \(user.rpID)."
        }.joined(separator: "\n")
    }
}
