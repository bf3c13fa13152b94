import FoundationEssentials
import PostgresNIO
import WebAuthn

extension PostgresTenantStore {
    /// The first of `profile`'s identifiers that already belongs to a user, if any; emails and
    /// usernames compared without regard to case.
    func takenIdentifier(of profile: UserProfile) async throws(TenantError) -> String? {
        try await withConnection { connection in try await Self.takenIdentifier(of: profile, on: connection) }
    }

    static func takenIdentifier(of profile: UserProfile, on connection: PostgresConnection) async throws -> String? {
        if let email = profile.email,
            try await !connection.rows("SELECT 1 FROM users WHERE lower(email) = lower(\(email))").isEmpty
        {
            return "email"
        }
        if let phone = profile.phoneNumber,
            try await !connection.rows("SELECT 1 FROM users WHERE phone_number = \(phone)").isEmpty
        {
            return "phone_number"
        }
        if let username = profile.username,
            try await !connection.rows("SELECT 1 FROM users WHERE lower(username) = lower(\(username))").isEmpty
        {
            return "username"
        }
        return nil
    }

    /// The refusal of an identifier taken by a concurrent signup at another instance, or of a
    /// credential ID registered at once: the unique index caught what the checks could not see.
    static func signupRefusal(_ constraint: String) -> TenantError? {
        constraint == "credentials_pkey" ? duplicateCredential : TenantServices.userAlreadyExists
    }

    static let duplicateCredential = TenantError.invalidRequest(
        "The passkey is registered already (duplicate credential ID).")

    /// Stores a new user with their first passkey, in one transaction.
    ///
    /// - Throws: `invalid_request` when an identifier belongs to a user already, or the
    ///   credential ID is registered already; nothing is stored then.
    func createUser(_ user: TenantUser, credential: TenantCredential) async throws(TenantError) {
        try await transaction(unique: Self.signupRefusal) { connection in
            if try await Self.takenIdentifier(of: user.profile, on: connection) != nil {
                throw TenantServices.userAlreadyExists
            }
            try await Self.insert(user, on: connection)
            try await Self.insert(credential, on: connection)
        }
    }

    /// Adds a passkey to an existing user.
    ///
    /// - Throws: `invalid_request` when the credential ID is registered already; `not_found` when
    ///   the user is gone.
    func addCredential(_ credential: TenantCredential) async throws(TenantError) {
        try await transaction(unique: { _ in Self.duplicateCredential }) { connection in
            guard try await !connection.rows("SELECT 1 FROM users WHERE id = \(credential.userID) FOR SHARE").isEmpty
            else {
                throw TenantError(.notFound, status: 404, "The user does not exist.")
            }
            try await Self.insert(credential, on: connection)
        }
    }

    /// Inserts a user row; the caller has checked the identifiers are free. An upstream
    /// connection's user's identifiers stay out of the identifier columns, which are the database
    /// connection's (unique there).
    static func insert(_ user: TenantUser, on connection: PostgresConnection) async throws {
        let profile = String(decoding: WebAuthnJSON.encode(user.profile), as: UTF8.self)
        let metadata = String(decoding: WebAuthnJSON.encode(user.metadata), as: UTF8.self)
        let own = user.identity == nil ? user.profile : UserProfile()
        let identity = user.identity.map { String(decoding: WebAuthnJSON.encode($0), as: UTF8.self) }
        try await connection.run(
            """
            INSERT INTO users (id, user_handle, email, phone_number, username, profile, metadata, created_at,
                email_verified, identity)
            VALUES (\(user.id), \(Data(user.userHandle)), \(own.email), \(own.phoneNumber),
                \(own.username), \(profile), \(metadata), \(user.createdAt.storedValue),
                \(user.emailVerified ?? false), \(identity))
            """)
    }

    /// Stores an upstream connection's user at a login, in one transaction holding the row: a new
    /// one as given; a known one (the same ID) keeps its handle and creation time and takes the
    /// profile and `email_verified` the upstream gives now.
    ///
    /// - Returns: the stored user.
    func federatedUser(_ user: TenantUser) async throws(TenantError) -> TenantUser {
        try await transaction { connection in
            if let row = try await connection.rows("SELECT * FROM users WHERE id = \(user.id) FOR UPDATE").first {
                var stored = try Self.user(from: row)
                (stored.profile, stored.emailVerified) = (user.profile, user.emailVerified)
                let profile = String(decoding: WebAuthnJSON.encode(user.profile), as: UTF8.self)
                try await connection.run(
                    """
                    UPDATE users SET profile = \(profile), email_verified = \(user.emailVerified ?? false)
                    WHERE id = \(user.id)
                    """)
                return stored
            }
            try await Self.insert(user, on: connection)
            return user
        }
    }

    /// Inserts a credential row.
    ///
    /// - Throws: `invalid_request` when the credential ID is registered already.
    static func insert(_ credential: TenantCredential, on connection: PostgresConnection) async throws {
        if try await !connection.rows("SELECT 1 FROM credentials WHERE id = \(Data(credential.id))").isEmpty {
            throw duplicateCredential
        }
        try await connection.run(
            """
            INSERT INTO credentials (id, method_id, user_id, public_key, algorithm, sign_count, backup_eligible,
                backed_up, aaguid, transports, user_agent, created_at, last_auth_at, user_handle, name)
            VALUES (\(Data(credential.id)), \(credential.methodID), \(credential.userID), \(Data(credential.publicKey)),
                \(credential.algorithm.rawValue), \(Int64(credential.signCount)), \(credential.backupEligible),
                \(credential.backedUp), \(credential.aaguid.description), \(credential.transports.joined(separator: " ")),
                \(credential.userAgent), \(credential.createdAt.storedValue), NULL, \(credential.userHandle.map { Data($0) }),
                \(credential.name))
            """)
    }

    /// The user with this ID.
    func user(id: String) async throws(TenantError) -> TenantUser? {
        try await withConnection { connection in
            try await connection.rows("SELECT * FROM users WHERE id = \(id)").first.map(Self.user(from:))
        }
    }

    /// The credential with this ID and its owner.
    func credential(id: [UInt8]) async throws(TenantError) -> (TenantCredential, TenantUser)? {
        let found = try await withConnection { connection -> Found? in
            guard let row = try await connection.rows("SELECT * FROM credentials WHERE id = \(Data(id))").first
            else { return nil }
            let credential = try Self.credential(from: row)
            guard let owner = try await connection.rows("SELECT * FROM users WHERE id = \(credential.userID)").first
            else { return nil }
            return Found(credential: credential, user: try Self.user(from: owner))
        }
        return found.map { ($0.credential, $0.user) }
    }

    /// The credential with this ID, its owner and the owner's failed attempts since `since`, in one
    /// statement (``LoginStatements/LoginCredential``).
    func loginCredential(id: [UInt8], failuresSince since: Date) async throws(TenantError)
        -> (TenantCredential, TenantUser, FailureWindow?)?
    {
        let found = try await withConnection { connection -> Found? in
            guard let row = try await connection.rows(LoginStatements.LoginCredential(id: id, since: since)).first
            else { return nil }
            let count = try row.value("failures", as: Int64.self)
            return Found(
                credential: try Self.credential(from: row), user: try Self.user(from: row, prefix: Self.ownerPrefix),
                failures: count == 0
                    ? nil
                    : FailureWindow(
                        count: Int(count), oldest: Date(timeIntervalSince1970: try row.value("oldest", as: Double.self))
                    ))
        }
        return found.map { ($0.credential, $0.user, $0.failures) }
    }

    /// A credential with its owner (and the owner's failed attempts), as one `Sendable` value.
    private struct Found: Sendable {
        let credential: TenantCredential
        let user: TenantUser
        var failures: FailureWindow? = nil
    }

    /// A user's passkeys, oldest first.
    func credentials(userID: String) async throws(TenantError) -> [TenantCredential] {
        try await withConnection { connection in
            try await connection.rows(
                "SELECT * FROM credentials WHERE user_id = \(userID) ORDER BY created_at, method_id"
            ).map(Self.credential(from:))
        }
    }

    /// Stores what a verified assertion changed: the counter, BS, the time, in one
    /// compare-and-set `UPDATE … WHERE sign_count = previous`, so two concurrent assertions of
    /// one security key, at any instances, cannot both move it forward; with `refresh`, the
    /// login's refresh token in the same statement (one transaction, one round trip), stored only
    /// when the update applied.
    ///
    /// - Returns: whether the update applied.
    func recordAssertion(_ update: AssertionUpdate, refresh: (grant: RefreshGrant, key: StoredValue)?)
        async throws(TenantError) -> Bool
    {
        try await withConnection { connection in
            if let refresh {
                let statement = LoginStatements.RecordAssertionAndRefresh(
                    update: update, grant: refresh.grant, key: refresh.key)
                return try await connection.rows(statement).first?.value("applied", as: Bool.self) ?? false
            }
            return try await !connection.rows(LoginStatements.RecordAssertion(update: update)).isEmpty
        }
    }

    /// Names one of a user's passkeys.
    ///
    /// - Returns: the renamed passkey, or nil when the user has no passkey with this method ID.
    func renameCredential(methodID: String, userID: String, name: String) async throws(TenantError)
        -> TenantCredential?
    {
        try await withConnection { connection in
            try await connection.rows(
                "UPDATE credentials SET name = \(name) WHERE method_id = \(methodID) AND user_id = \(userID) RETURNING *"
            ).first.map(Self.credential(from:))
        }
    }

    /// Deletes one of a user's passkeys.
    ///
    /// - Returns: whether there was such a passkey.
    func deleteCredential(methodID: String, userID: String) async throws(TenantError) -> Bool {
        try await withConnection { connection in
            try await !connection.rows(
                "DELETE FROM credentials WHERE method_id = \(methodID) AND user_id = \(userID) RETURNING 1"
            ).isEmpty
        }
    }

    // MARK: Rows

    /// The columns of `users` a user is read from (``user(from:prefix:)``).
    static let userColumns = [
        "id", "user_handle", "profile", "metadata", "created_at", "email_verified", "identity", "app_metadata",
        "updated_at", "primary_user_id",
    ]

    /// The columns of `credentials` a credential is read from (``credential(from:)``).
    static let credentialColumns = [
        "id", "method_id", "user_id", "public_key", "algorithm", "sign_count", "backup_eligible", "backed_up",
        "aaguid", "transports", "user_agent", "created_at", "last_auth_at", "name", "user_handle",
    ]

    /// The prefix of a credential's owner's columns in a row that has both
    /// (``LoginStatements/LoginCredential``).
    static let ownerPrefix = "owner_"

    /// The user in a row of `users`.
    static func user(from row: PostgresRow) throws -> TenantUser {
        try user(from: row, prefix: "")
    }

    /// The user in `row`, whose columns of `users` are named `prefix` and the column's name.
    static func user(from row: PostgresRow, prefix: String) throws -> TenantUser {
        let row = PrefixedRow(row: row, prefix: prefix)
        let profile = try row.value("profile", as: String.self)
        let metadata = try row.value("metadata", as: String.self)
        let identity = try row.value("identity", as: String?.self)
        let appMetadata = try row.value("app_metadata", as: String?.self)
        return TenantUser(
            id: try row.value("id"), userHandle: Array(try row.value("user_handle", as: Data.self)),
            profile: try JSONDecoder().decode(UserProfile.self, from: Data(profile.utf8)),
            metadata: try JSONDecoder().decode([String: JSONValue].self, from: Data(metadata.utf8)),
            createdAt: Date(timeIntervalSince1970: try row.value("created_at")),
            emailVerified: try row.value("email_verified", as: Bool.self) ? true : nil,
            identity: try identity.map { try JSONDecoder().decode(UserIdentity.self, from: Data($0.utf8)) },
            appMetadata: try appMetadata.map {
                try JSONDecoder().decode([String: JSONValue].self, from: Data($0.utf8))
            },
            updatedAt: try row.value("updated_at", as: Double?.self).map(Date.init(timeIntervalSince1970:)),
            primaryUserID: try row.value("primary_user_id", as: String?.self))
    }

    /// The columns of `users` under a prefix, read by their own names.
    private struct PrefixedRow {
        let row: PostgresRandomAccessRow
        let prefix: String

        init(row: PostgresRow, prefix: String) {
            self.row = row.makeRandomAccess()
            self.prefix = prefix
        }

        func value<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
            try row[prefix.isEmpty ? name : prefix + name].decode(T.self)
        }
    }

    static func credential(from row: PostgresRow) throws -> TenantCredential {
        let algorithm = try row.value("algorithm", as: Int.self)
        let signCount = try row.value("sign_count", as: Int64.self)
        guard let coseAlgorithm = COSEAlgorithm(rawValue: algorithm), let count = UInt32(exactly: signCount) else {
            throw TenantError(.serverError, status: 500, "corrupt credential row")
        }
        let transports = try row.value("transports", as: String.self)
        return TenantCredential(
            id: Array(try row.value("id", as: Data.self)), methodID: try row.value("method_id"),
            userID: try row.value("user_id"), publicKey: Array(try row.value("public_key", as: Data.self)),
            algorithm: coseAlgorithm, signCount: count, backupEligible: try row.value("backup_eligible"),
            backedUp: try row.value("backed_up"), aaguid: try AAGUID(uuidString: try row.value("aaguid")),
            transports: transports.split(separator: " ").map(String.init), userAgent: try row.value("user_agent"),
            createdAt: Date(timeIntervalSince1970: try row.value("created_at")),
            lastAuthenticatedAt: try row.value("last_auth_at", as: Double?.self).map(Date.init(timeIntervalSince1970:)),
            name: try row.value("name"), userHandle: try row.value("user_handle", as: Data?.self).map { Array($0) })
    }
}
