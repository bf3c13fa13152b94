/// The body of `POST /api/v2/users/{id}/identities` (Auth0 Management API "Link a User
/// Account"), in one of its two forms:
///
/// ```
/// { "link_with": "<the secondary account's ID token>" }
/// { "provider": "auth0" | "oidc" | …, "user_id": "<the ID at the provider>", "connection_id"? }
/// ```
///
/// The first with the primary user's own token (`update:current_user_identities`) or the
/// machine-to-machine client's; the second with the machine-to-machine client's (`update:users`)
/// only. **[local]** The tenant has no connection IDs: `connection_id` is a connection's name,
/// needed for an `oidc` identity (whose `user_id` is the upstream's `sub`).
struct IdentityLinkRequest: Sendable, Hashable, Codable {
    var linkWith: String?
    var provider: String?
    var userID: String?
    var connectionID: String?

    enum CodingKeys: String, CodingKey {
        case provider
        case linkWith = "link_with"
        case userID = "user_id"
        case connectionID = "connection_id"
    }
}
