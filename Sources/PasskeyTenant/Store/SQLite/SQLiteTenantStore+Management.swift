import FoundationEssentials
import GRDB
import WebAuthn

// What the Management API reads and writes (auth0-passkey-api.md §15): users without a passkey,
// passkeys posted rather than registered, users found by email, and users deleted with everything
// they hold.
extension SQLiteTenantStore {
    /// Stores a new user with no passkey.
    ///
    /// - Throws: `auth0_idp_error` (409) when an identifier belongs to a user already; nothing is
    ///   stored then.
    func insertUser(_ user: TenantUser) async throws(TenantError) {
        try await write { db in
            if let column = try Self.takenIdentifier(of: user.profile, in: db) {
                throw TenantError(.userExists, status: 409, "The user already exists (\(column) is taken).")
            }
            try Self.insert(user, in: db)
        }
    }

    /// One page of the users `filter` keeps, oldest first, and with `counting` how many it keeps
    /// (the email compared by the column's collation, `NOCASE`; an upstream connection's user's, in
    /// the profile, alike), in one read transaction.
    func users(_ filter: UserFilter, offset: Int, limit: Int?, counting: Bool) async throws(TenantError)
        -> (users: [TenantUser], total: Int?)
    {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let userID = filter.userID {
            conditions.append("id = ?")
            arguments += [userID]
        }
        if let email = filter.email {
            // An upstream connection's user has the email in the profile only (``TenantUser/identity``).
            conditions.append(
                "(email = ? OR (identity IS NOT NULL AND json_extract(profile, '$.email') = ? COLLATE NOCASE))")
            arguments += [email, email]
        }
        if let username = filter.username {
            conditions.append("username = ?")
            arguments += [username]
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let counted = arguments
        // SQLite: a negative LIMIT is none.
        let paged = arguments + [limit ?? -1, offset]
        return try await read { db in
            let users = try Row.fetchAll(
                db, sql: "SELECT * FROM users\(whereClause) ORDER BY created_at, id LIMIT ? OFFSET ?",
                arguments: paged
            ).map(Self.user(from:))
            guard counting else { return (users, nil) }
            return (users, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users\(whereClause)", arguments: counted))
        }
    }

    /// Deletes a user with their passkeys, refresh tokens and login sessions (the foreign keys
    /// cascade).
    ///
    /// - Returns: whether there was such a user.
    func deleteUser(id: String) async throws(TenantError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [id])
            return db.changesCount == 1
        }
    }

    /// Adds a posted passkey to an existing user.
    ///
    /// - Throws: `inexistent_user` (404) when the user is gone; `conflict` (409) when the credential
    ///   ID is registered already, to any user.
    func insertPostedCredential(_ credential: TenantCredential) async throws(TenantError) {
        try await write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [credential.userID]) == true
            else {
                throw TenantError(.inexistentUser, status: 404, "The user does not exist.")
            }
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM credentials WHERE id = ?", arguments: [Data(credential.id)])
                == true
            {
                throw TenantError(.conflict, status: 409, "An authentication method with this key_id already exists.")
            }
            try Self.insert(credential, in: db)
        }
    }
}
