import FoundationEssentials
import PostgresNIO

// What the Management API reads and writes (auth0-passkey-api.md §15): users without a passkey,
// passkeys posted rather than registered, users found by email, and users deleted with everything
// they hold.
extension PostgresTenantStore {
    /// Stores a new user with no passkey.
    ///
    /// - Throws: `auth0_idp_error` (409) when an identifier belongs to a user already (also when
    ///   another instance stored it a moment before: the unique indexes decide); nothing is stored
    ///   then.
    func insertUser(_ user: TenantUser) async throws(TenantError) {
        try await transaction(unique: { _ in Self.userExists("an identifier") }) { connection in
            if let column = try await Self.takenIdentifier(of: user.profile, on: connection) {
                throw Self.userExists(column)
            }
            try await Self.insert(user, on: connection)
        }
    }

    private static func userExists(_ column: String) -> TenantError {
        TenantError(.userExists, status: 409, "The user already exists (\(column) is taken).")
    }

    /// One page of the users `filter` keeps, oldest first, and with `counting` how many it keeps
    /// (the email compared as the unique index `lower(email)` compares it; an upstream connection's
    /// user's, in the profile, alike).
    func users(_ filter: UserFilter, offset: Int, limit: Int?, counting: Bool) async throws(TenantError)
        -> (users: [TenantUser], total: Int?)
    {
        var conditions: [String] = []
        var bindings = PostgresBindings()
        if let userID = filter.userID {
            bindings.append(userID)
            conditions.append("id = $\(bindings.count)")
        }
        if let email = filter.email {
            bindings.append(email)
            // An upstream connection's user has the email in the profile only (``TenantUser/identity``).
            conditions.append(
                "(lower(email) = lower($\(bindings.count)) OR (identity IS NOT NULL "
                    + "AND lower(profile::json->>'email') = lower($\(bindings.count))))")
        }
        if let username = filter.username {
            bindings.append(username)
            conditions.append("lower(username) = lower($\(bindings.count))")
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let count = PostgresQuery(unsafeSQL: "SELECT COUNT(*) AS total FROM users\(whereClause)", binds: bindings)
        // PostgreSQL: LIMIT NULL is none.
        if let limit { bindings.append(limit) } else { bindings.appendNull() }
        bindings.append(offset)
        let select = PostgresQuery(
            unsafeSQL: "SELECT * FROM users\(whereClause) ORDER BY created_at, id "
                + "LIMIT $\(bindings.count - 1) OFFSET $\(bindings.count)",
            binds: bindings)
        return try await withConnection { connection in
            let users = try await connection.rows(select).map(Self.user(from:))
            guard counting else { return (users, nil) }
            return (users, try await connection.rows(count).first?.value("total", as: Int.self))
        }
    }

    /// Deletes a user with their passkeys, refresh tokens, login sessions and memberships (the
    /// foreign keys cascade).
    ///
    /// - Returns: whether there was such a user.
    func deleteUser(id: String) async throws(TenantError) -> Bool {
        try await withConnection { connection in
            try await !connection.rows("DELETE FROM users WHERE id = \(id) RETURNING 1").isEmpty
        }
    }

    /// Adds a posted passkey to an existing user.
    ///
    /// - Throws: `inexistent_user` (404) when the user is gone; `conflict` (409) when the credential
    ///   ID is registered already, to any user.
    func insertPostedCredential(_ credential: TenantCredential) async throws(TenantError) {
        try await transaction(unique: { _ in Self.conflict }) { connection in
            guard try await !connection.rows("SELECT 1 FROM users WHERE id = \(credential.userID) FOR SHARE").isEmpty
            else {
                throw TenantError(.inexistentUser, status: 404, "The user does not exist.")
            }
            if try await !connection.rows("SELECT 1 FROM credentials WHERE id = \(Data(credential.id))").isEmpty {
                throw Self.conflict
            }
            try await Self.insert(credential, on: connection)
        }
    }

    private static let conflict = TenantError(
        .conflict, status: 409, "An authentication method with this key_id already exists.")
}
