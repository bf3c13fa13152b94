/// The users a store reads for the Management API, narrowed in SQL by exact terms only: a user ID
/// (compared as is) and an email (compared without regard to case, as `users-by-email` and the
/// unique index compare it; an upstream connection's user's email is in the profile only, and
/// compared alike). Both given: users with both.
///
/// ```
/// SELECT * FROM users [WHERE id = ? [AND] email = ? [AND] username = ?] ORDER BY created_at, id [LIMIT ? OFFSET ?]
/// ```
///
/// Everything else `GET /api/v2/users` takes (prefixes, `OR`, `NOT`, the other fields, `sort`) is
/// matched in Swift (``UserSearchQuery``) over what the filter read, so a filter only ever narrows
/// to a superset of the answer.
struct UserFilter: Sendable, Hashable {
    /// Only the user with this ID.
    var userID: String?
    /// Only the users with this email, without regard to case.
    var email: String?
    /// Only the database connection's user with this username, without regard to case (the
    /// password grants' `username`).
    var username: String? = nil

    /// Every user.
    static let all = UserFilter()
}
