import FoundationEssentials
import GRDB
import WebAuthn

extension SQLiteTenantStore {
    /// The first of `profile`'s identifiers that already belongs to a user, if any.
    func takenIdentifier(of profile: UserProfile) async throws(TenantError) -> String? {
        try await read { db in try Self.takenIdentifier(of: profile, in: db) }
    }

    static func takenIdentifier(of profile: UserProfile, in db: Database) throws -> String? {
        let checks: [(String, String?)] = [
            ("email", profile.email), ("phone_number", profile.phoneNumber), ("username", profile.username),
        ]
        for case (let column, let value?) in checks
        where try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE \(column) = ?", arguments: [value]) == true {
            return column
        }
        return nil
    }

    /// Stores a new user with their first passkey, in one transaction.
    ///
    /// - Throws: `invalid_request` when an identifier belongs to a user already, or the
    ///   credential ID is registered already; nothing is stored then.
    func createUser(_ user: TenantUser, credential: TenantCredential) async throws(TenantError) {
        try await write { db in
            if try Self.takenIdentifier(of: user.profile, in: db) != nil {
                throw TenantServices.userAlreadyExists
            }
            try Self.insert(user, in: db)
            try Self.insert(credential, in: db)
        }
    }

    /// Adds a passkey to an existing user.
    ///
    /// - Throws: `invalid_request` when the credential ID is registered already; `not_found` when
    ///   the user is gone.
    func addCredential(_ credential: TenantCredential) async throws(TenantError) {
        try await write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [credential.userID]) == true
            else {
                throw TenantError(.notFound, status: 404, "The user does not exist.")
            }
            try Self.insert(credential, in: db)
        }
    }

    /// Inserts a user row; the caller has checked the identifiers are free. An upstream
    /// connection's user's identifiers stay out of the identifier columns, which are the database
    /// connection's (unique there).
    static func insert(_ user: TenantUser, in db: Database) throws {
        let profile = WebAuthnJSON.encode(user.profile)
        let metadata = WebAuthnJSON.encode(user.metadata)
        let own = user.identity == nil ? user.profile : UserProfile()
        // A cached statement: a bulk import inserts thousands in one transaction.
        try db.cachedStatement(
            sql: """
                INSERT INTO users (id, user_handle, email, phone_number, username, profile, metadata, created_at,
                    email_verified, identity)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                user.id, Data(user.userHandle), own.email, own.phoneNumber, own.username,
                String(decoding: profile, as: UTF8.self), String(decoding: metadata, as: UTF8.self),
                user.createdAt.storedValue, user.emailVerified ?? false,
                user.identity.map { String(decoding: WebAuthnJSON.encode($0), as: UTF8.self) },
            ])
    }

    /// Stores an upstream connection's user at a login: a new one as given; a known one (the same
    /// ID) keeps its handle and creation time and takes the profile and `email_verified` the
    /// upstream gives now.
    ///
    /// - Returns: the stored user.
    func federatedUser(_ user: TenantUser) async throws(TenantError) -> TenantUser {
        try await write { db in
            guard
                var stored = try Row.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [user.id])
                    .map(Self.user(from:))
            else {
                try Self.insert(user, in: db)
                return user
            }
            (stored.profile, stored.emailVerified) = (user.profile, user.emailVerified)
            try db.execute(
                sql: "UPDATE users SET profile = ?, email_verified = ? WHERE id = ?",
                arguments: [
                    String(decoding: WebAuthnJSON.encode(user.profile), as: UTF8.self), user.emailVerified ?? false,
                    user.id,
                ])
            return stored
        }
    }

    /// Inserts a credential row.
    ///
    /// - Throws: `invalid_request` when the credential ID is registered already.
    static func insert(_ credential: TenantCredential, in db: Database) throws {
        let taken = try db.cachedStatement(sql: "SELECT 1 FROM credentials WHERE id = ?")
        if try Bool.fetchOne(taken, arguments: [Data(credential.id)]) == true {
            throw TenantError.invalidRequest("The passkey is registered already (duplicate credential ID).")
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO credentials (id, method_id, user_id, public_key, algorithm, sign_count, backup_eligible,
                    backed_up, aaguid, transports, user_agent, created_at, last_auth_at, user_handle, name)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)
                """
        ).execute(
            arguments: [
                Data(credential.id), credential.methodID, credential.userID, Data(credential.publicKey),
                credential.algorithm.rawValue, Int64(credential.signCount), credential.backupEligible,
                credential.backedUp, credential.aaguid.description, credential.transports.joined(separator: " "),
                credential.userAgent, credential.createdAt.storedValue, credential.userHandle.map { Data($0) },
                credential.name,
            ])
    }

    /// The user with this ID.
    func user(id: String) async throws(TenantError) -> TenantUser? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [id]).map(Self.user(from:))
        }
    }

    /// The credential with this ID and its owner.
    func credential(id: [UInt8]) async throws(TenantError) -> (TenantCredential, TenantUser)? {
        try await read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM credentials WHERE id = ?", arguments: [Data(id)])
            else { return nil }
            let credential = try Self.credential(from: row)
            guard
                let owner = try Row.fetchOne(
                    db, sql: "SELECT * FROM users WHERE id = ?", arguments: [credential.userID])
            else { return nil }
            return (credential, try Self.user(from: owner))
        }
    }

    /// A user's passkeys, oldest first.
    func credentials(userID: String) async throws(TenantError) -> [TenantCredential] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM credentials WHERE user_id = ? ORDER BY created_at, method_id",
                arguments: [userID]
            ).map(Self.credential(from:))
        }
    }

    /// Stores what a verified assertion changed: the counter, BS, the time; with `refresh`, the
    /// login's refresh token in the same transaction.
    ///
    /// The update only applies while the stored counter is the one the assertion was verified
    /// against, so two concurrent assertions of one security key cannot both move it forward; the
    /// refresh token is stored only when it applied.
    ///
    /// - Returns: whether the update applied.
    func recordAssertion(_ update: AssertionUpdate, refresh: (grant: RefreshGrant, key: StoredValue)?)
        async throws(TenantError) -> Bool
    {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE credentials SET sign_count = ?, backed_up = ?, last_auth_at = ?
                    WHERE id = ? AND sign_count = ?
                    """,
                arguments: [
                    Int64(update.signCount), update.backedUp, update.time.storedValue, Data(update.credentialID),
                    Int64(update.previousSignCount),
                ])
            guard db.changesCount == 1 else { return false }
            if let refresh { _ = try Self.insert(refresh.grant, key: refresh.key, in: db) }
            return true
        }
    }

    /// Names one of a user's passkeys.
    ///
    /// - Returns: the renamed passkey, or nil when the user has no passkey with this method ID.
    func renameCredential(methodID: String, userID: String, name: String) async throws(TenantError)
        -> TenantCredential?
    {
        try await write { db in
            try db.execute(
                sql: "UPDATE credentials SET name = ? WHERE method_id = ? AND user_id = ?",
                arguments: [name, methodID, userID])
            guard db.changesCount == 1 else { return nil }
            return try Row.fetchOne(db, sql: "SELECT * FROM credentials WHERE method_id = ?", arguments: [methodID])
                .map(Self.credential(from:))
        }
    }

    /// Deletes one of a user's passkeys.
    ///
    /// - Returns: whether there was such a passkey.
    func deleteCredential(methodID: String, userID: String) async throws(TenantError) -> Bool {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM credentials WHERE method_id = ? AND user_id = ?", arguments: [methodID, userID])
            return db.changesCount == 1
        }
    }

    // MARK: Rows

    static func user(from row: Row) throws -> TenantUser {
        let profile: String = row["profile"]
        let metadata: String = row["metadata"]
        let handle: Data = row["user_handle"]
        let identity: String? = row["identity"]
        let appMetadata: String? = row["app_metadata"]
        let updatedAt: Double? = row["updated_at"]
        return TenantUser(
            id: row["id"], userHandle: Array(handle),
            profile: try JSONDecoder().decode(UserProfile.self, from: Data(profile.utf8)),
            metadata: try JSONDecoder().decode([String: JSONValue].self, from: Data(metadata.utf8)),
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            emailVerified: (row["email_verified"] as Bool?) == true ? true : nil,
            identity: try identity.map { try JSONDecoder().decode(UserIdentity.self, from: Data($0.utf8)) },
            appMetadata: try appMetadata.map {
                try JSONDecoder().decode([String: JSONValue].self, from: Data($0.utf8))
            },
            updatedAt: updatedAt.map(Date.init(timeIntervalSince1970:)), primaryUserID: row["primary_user_id"])
    }

    static func credential(from row: Row) throws -> TenantCredential {
        let id: Data = row["id"]
        let publicKey: Data = row["public_key"]
        let algorithm: Int = row["algorithm"]
        let signCount: Int64 = row["sign_count"]
        let transports: String = row["transports"]
        let lastAuth: Double? = row["last_auth_at"]
        let userHandle: Data? = row["user_handle"]
        guard let coseAlgorithm = COSEAlgorithm(rawValue: algorithm), let count = UInt32(exactly: signCount) else {
            throw TenantError(.serverError, status: 500, "corrupt credential row")
        }
        return TenantCredential(
            id: Array(id), methodID: row["method_id"], userID: row["user_id"], publicKey: Array(publicKey),
            algorithm: coseAlgorithm, signCount: count, backupEligible: row["backup_eligible"],
            backedUp: row["backed_up"], aaguid: try AAGUID(uuidString: row["aaguid"]),
            transports: transports.split(separator: " ").map(String.init), userAgent: row["user_agent"],
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            lastAuthenticatedAt: lastAuth.map(Date.init(timeIntervalSince1970:)), name: row["name"],
            userHandle: userHandle.map { Array($0) })
    }
}
