public import WebAuthn

/// A user as the Management API answers it (spec §15.2):
///
/// ```json
/// {"user_id":"auth0|65f0c2d1a9e4b7c3d2e1f0a9","email":"ada@example.com","email_verified":true,
///  "name":"ada@example.com","nickname":"ada","picture":"https://example.com/ada.png",
///  "identities":[{"connection":"Username-Password-Authentication","user_id":"65f0c2d1a9e4b7c3d2e1f0a9",
///                 "provider":"auth0","isSocial":false}],
///  "created_at":"2025-05-15T13:29:32.321Z","updated_at":"2025-05-15T13:29:32.321Z"}
/// ```
///
/// Only `user_id` is required; the other members are read when present.
public struct ManagementUser: Sendable, Hashable, Decodable {
    /// One of the user's identities: the connection that holds the account (spec §15.2).
    public struct Identity: Sendable, Hashable, Decodable {
        /// `connection`.
        public let connection: String
        /// `user_id`: the ID within the provider, without the `auth0|` prefix.
        public let userId: String
        /// `provider`: `auth0` for a database connection.
        public let provider: String
        /// `isSocial`.
        public let isSocial: Bool?
        /// `profileData`: a linked (secondary) identity's profile, as Auth0 lists it under the
        /// primary user; nil for the user's own identity.
        public let profileData: [String: JSONValue]?

        private enum CodingKeys: String, CodingKey {
            case connection, provider, isSocial, profileData
            case userId = "user_id"
        }
    }

    /// `user_id`: the whole ID, such as `auth0|65f0c2d1a9e4b7c3d2e1f0a9`.
    public let userId: String
    /// `email`.
    public let email: String?
    /// `email_verified`.
    public let emailVerified: Bool?
    /// `phone_number`.
    public let phoneNumber: String?
    /// `username`.
    public let username: String?
    /// `name`.
    public let name: String?
    /// `nickname`.
    public let nickname: String?
    /// `picture`.
    public let picture: String?
    /// `user_metadata`: what the user may change (``ManagementUsers/patch(_:userMetadata:)``); nil when
    /// absent.
    public let userMetadata: [String: JSONValue]?
    /// `app_metadata`: what only the machine-to-machine client sets; nil when absent.
    public let appMetadata: [String: JSONValue]?
    /// `identities`: the user's own, then each linked account's; empty when absent.
    @MissingIsEmpty public private(set) var identities: [Identity]
    /// `created_at`, as sent (ISO 8601).
    public let createdAt: String?
    /// `updated_at`, as sent (ISO 8601).
    public let updatedAt: String?

    private enum CodingKeys: String, CodingKey {
        case email, username, name, nickname, picture, identities
        case userId = "user_id"
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
        case userMetadata = "user_metadata"
        case appMetadata = "app_metadata"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}
