import FoundationEssentials
import GRDB
import WebAuthn

// User metadata and account linking: a user changed through the Management API, and
// secondary users linked to a primary.
extension SQLiteTenantStore {
    /// Changes a user of its own with `change`, in one write transaction, checking the identifiers
    /// it changed are free.
    ///
    /// - Returns: the changed user; nil when there is no such user of its own.
    func updateUser(id: String, _ change: @escaping @Sendable (inout TenantUser) throws(TenantError) -> Void)
        async throws(TenantError) -> TenantUser?
    {
        try await write { db in
            guard
                let stored = try Row.fetchOne(
                    db, sql: "SELECT * FROM users WHERE id = ? AND primary_user_id IS NULL", arguments: [id]
                ).map(Self.user(from:))
            else { return nil }
            var user = stored
            try change(&user)
            if let column = try Self.takenIdentifier(of: stored.changedIdentifiers(in: user), in: db) {
                throw TenantError(.userExists, status: 409, "The user already exists (\(column) is taken).")
            }
            let own = user.identity == nil ? user.profile : UserProfile()
            try db.execute(
                sql: """
                    UPDATE users SET email = ?, phone_number = ?, username = ?, profile = ?, metadata = ?,
                        app_metadata = ?, email_verified = ?, updated_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    own.email, own.phoneNumber, own.username, user.storedProfile, user.storedMetadata,
                    user.storedAppMetadata, user.emailVerified ?? false, user.updatedAt?.storedValue, id,
                ])
            return user
        }
    }

    /// Links `secondaryID` to `primaryID`, both users of their own, the secondary with no
    /// secondaries of its own.
    func linkUser(_ secondaryID: String, to primaryID: String, at time: Date) async throws(TenantError) {
        try await write { db in
            let own = "SELECT 1 FROM users WHERE id = ? AND primary_user_id IS NULL"
            guard try Bool.fetchOne(db, sql: own, arguments: [primaryID]) == true else {
                throw TenantServices.inexistentUser
            }
            guard try Bool.fetchOne(db, sql: own, arguments: [secondaryID]) == true else {
                let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [secondaryID])
                throw exists == true ? TenantServices.alreadyLinked : TenantServices.inexistentUser
            }
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE primary_user_id = ?", arguments: [secondaryID])
                == true
            {
                throw TenantServices.secondaryHasIdentities
            }
            try db.execute(
                sql: "UPDATE users SET primary_user_id = ?, linked_at = ? WHERE id = ?",
                arguments: [primaryID, time.storedValue, secondaryID])
        }
    }

    /// Makes `secondaryID` a user of its own again.
    ///
    /// - Returns: whether it was linked to `primaryID`.
    func unlinkUser(_ secondaryID: String, from primaryID: String) async throws(TenantError) -> Bool {
        try await write { db in
            try db.execute(
                sql: "UPDATE users SET primary_user_id = NULL, linked_at = NULL WHERE id = ? AND primary_user_id = ?",
                arguments: [secondaryID, primaryID])
            return db.changesCount == 1
        }
    }

    /// The users linked to `primaryID`, in the order they were linked.
    func linkedUsers(primaryID: String) async throws(TenantError) -> [TenantUser] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM users WHERE primary_user_id = ? ORDER BY linked_at, id", arguments: [primaryID]
            ).map(Self.user(from:))
        }
    }
}
