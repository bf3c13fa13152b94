import WebAuthn

/// `GET /api/v2/users?include_totals=true`: one page of users and where it sits.
///
/// ```
/// { "start": number, "limit": number, "length": number, "total": number, "users": [user] }
/// ```
struct ManagedUserPage: Sendable, Hashable, Encodable {
    /// `page × per_page`.
    var start: Int
    /// `per_page`.
    var limit: Int
    /// How many users this page has.
    var length: Int
    /// How many users match in all.
    var total: Int
    var users: [JSONValue]
}
