import Auth0Passkeys
import Foundation
import WebAuthn

/// `passkey user metadata get|set`: the user's `user_metadata`, one `KEY=VALUE` line per member
/// (a value that is not a string as JSON), sorted by key.
struct UserMetadataOutcome: Encodable, CommandOutput {
    let metadata: [String: JSONValue]

    enum CodingKeys: String, CodingKey {
        case metadata = "user_metadata"
    }

    var text: String {
        metadata.sorted { $0.key < $1.key }.map { key, value in
            "\(key)=\(value.stringValue ?? Self.json(value))"
        }.joined(separator: "\n")
    }

    private static func json(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A JSONValue read from JSON always encodes.
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}

/// `passkey link`: the user's identities after the change, one `PROVIDER/ID CONNECTION` line each,
/// the user's own first.
struct IdentitiesOutcome: Encodable, CommandOutput {
    struct Identity: Encodable {
        let provider: String
        let userID: String
        let connection: String
        let email: String?

        enum CodingKeys: String, CodingKey {
            case provider, connection, email
            case userID = "user_id"
        }
    }

    let identities: [Identity]

    init(_ identities: [ManagementUser.Identity]) {
        self.identities = identities.map {
            Identity(
                provider: $0.provider, userID: $0.userId, connection: $0.connection,
                email: $0.profileData?["email"]?.stringValue)
        }
    }

    var text: String {
        identities.map { "\($0.provider)/\($0.userID) \($0.connection)" + ($0.email.map { " \($0)" } ?? "") }
            .joined(separator: "\n")
    }
}
