import FoundationEssentials
import PostgresNIO
import WebAuthn

// User metadata and account linking: a user changed through the Management API, and
// secondary users linked to a primary; each change one transaction holding the rows it reads.
extension PostgresTenantStore {
    /// Changes a user of its own with `change`, in one transaction holding its row
    /// (`SELECT … FOR UPDATE`), checking the identifiers it changed are free (the unique indexes
    /// decide a race).
    ///
    /// - Returns: the changed user; nil when there is no such user of its own.
    func updateUser(id: String, _ change: @escaping @Sendable (inout TenantUser) throws(TenantError) -> Void)
        async throws(TenantError) -> TenantUser?
    {
        let taken = TenantError(.userExists, status: 409, "The user already exists (an identifier is taken).")
        return try await transaction(unique: { _ in taken }) { connection in
            guard
                let row = try await connection.rows(
                    "SELECT * FROM users WHERE id = \(id) AND primary_user_id IS NULL FOR UPDATE"
                ).first
            else { return nil }
            let stored = try Self.user(from: row)
            var user = stored
            try change(&user)
            if let column = try await Self.takenIdentifier(of: stored.changedIdentifiers(in: user), on: connection) {
                throw TenantError(.userExists, status: 409, "The user already exists (\(column) is taken).")
            }
            let own = user.identity == nil ? user.profile : UserProfile()
            try await connection.run(
                """
                UPDATE users SET email = \(own.email), phone_number = \(own.phoneNumber), username = \(own.username),
                    profile = \(user.storedProfile), metadata = \(user.storedMetadata),
                    app_metadata = \(user.storedAppMetadata), email_verified = \(user.emailVerified ?? false),
                    updated_at = \(user.updatedAt?.storedValue)
                WHERE id = \(id)
                """)
            return user
        }
    }

    /// Links `secondaryID` to `primaryID`, both users of their own (rows held), the secondary
    /// with no secondaries of its own.
    func linkUser(_ secondaryID: String, to primaryID: String, at time: Date) async throws(TenantError) {
        try await transaction { connection in
            let rows = try await connection.rows(
                """
                SELECT id, primary_user_id FROM users WHERE id = \(primaryID) OR id = \(secondaryID)
                ORDER BY id FOR UPDATE
                """)
            var linked: [String: String?] = [:]
            for row in rows {
                linked[try row.value("id", as: String.self)] = try row.value("primary_user_id", as: String?.self)
            }
            guard case .some(.none) = linked[primaryID] else { throw TenantServices.inexistentUser }
            switch linked[secondaryID] {
            case .none: throw TenantServices.inexistentUser
            case .some(.some): throw TenantServices.alreadyLinked
            case .some(.none): break
            }
            if try await !connection.rows("SELECT 1 FROM users WHERE primary_user_id = \(secondaryID)").isEmpty {
                throw TenantServices.secondaryHasIdentities
            }
            try await connection.run(
                """
                UPDATE users SET primary_user_id = \(primaryID), linked_at = \(time.storedValue)
                WHERE id = \(secondaryID)
                """)
        }
    }

    /// Makes `secondaryID` a user of its own again.
    ///
    /// - Returns: whether it was linked to `primaryID`.
    func unlinkUser(_ secondaryID: String, from primaryID: String) async throws(TenantError) -> Bool {
        try await withConnection { connection in
            try await !connection.rows(
                """
                UPDATE users SET primary_user_id = NULL, linked_at = NULL
                WHERE id = \(secondaryID) AND primary_user_id = \(primaryID) RETURNING 1
                """
            ).isEmpty
        }
    }

    /// The users linked to `primaryID`, in the order they were linked.
    func linkedUsers(primaryID: String) async throws(TenantError) -> [TenantUser] {
        try await withConnection { connection in
            try await connection.rows(
                "SELECT * FROM users WHERE primary_user_id = \(primaryID) ORDER BY linked_at, id"
            ).map(Self.user(from:))
        }
    }
}
