import FoundationEssentials
import NIOCore
import PostgresNIO
import WebAuthn

extension PostgresTenantStore {
    /// Stores new users and their passkeys in one transaction of two statements, each inserting a
    /// whole column array (`INSERT … SELECT … FROM unnest(…)`): two round trips for the batch, not
    /// two per user. The unique indexes refuse a taken identifier, user handle or credential ID,
    /// from the store or from the batch itself.
    ///
    /// - Throws: ``ImportedUser/passkeyExists`` when `credentials_pkey` refuses a row;
    ///   ``ImportedUser/userExists`` when another unique index of `users` does.
    func insertUsers(_ users: [TenantUser], credentials: [TenantCredential]) async throws(TenantError) {
        // An absent identifier travels as '' (an identifier is never empty: the import checked
        // them) and is stored as NULL.
        let ids = users.map(\.id)
        let handles = users.map { ByteBuffer(bytes: $0.userHandle) }
        let emails = users.map { $0.profile.email ?? "" }
        let phones = users.map { $0.profile.phoneNumber ?? "" }
        let usernames = users.map { $0.profile.username ?? "" }
        let profiles = users.map { String(decoding: WebAuthnJSON.encode($0.profile), as: UTF8.self) }
        let metadata = users.map { String(decoding: WebAuthnJSON.encode($0.metadata), as: UTF8.self) }
        let created = users.map(\.createdAt.storedValue)
        let verified = users.map { $0.emailVerified ?? false }
        let credentialIDs = credentials.map { ByteBuffer(bytes: $0.id) }
        let methodIDs = credentials.map(\.methodID)
        let owners = credentials.map(\.userID)
        let keys = credentials.map { ByteBuffer(bytes: $0.publicKey) }
        let algorithms = credentials.map { Int64($0.algorithm.rawValue) }
        let counts = credentials.map { Int64($0.signCount) }
        let eligible = credentials.map(\.backupEligible)
        let backedUp = credentials.map(\.backedUp)
        let aaguids = credentials.map(\.aaguid.description)
        let transports = credentials.map { $0.transports.joined(separator: " ") }
        let registered = credentials.map(\.createdAt.storedValue)
        let refusal: @Sendable (String) -> TenantError? = {
            $0 == "credentials_pkey" ? ImportedUser.passkeyExists : ImportedUser.userExists
        }
        try await transaction(unique: refusal) { connection in
            try await connection.run(
                """
                INSERT INTO users (id, user_handle, email, phone_number, username, profile, metadata, created_at,
                    email_verified)
                SELECT id, handle, NULLIF(email, ''), NULLIF(phone, ''), NULLIF(username, ''), profile, metadata,
                    created, verified
                FROM unnest(\(ids)::text[], \(handles)::bytea[], \(emails)::text[], \(phones)::text[],
                    \(usernames)::text[], \(profiles)::text[], \(metadata)::text[], \(created)::float8[],
                    \(verified)::bool[])
                    AS imported(id, handle, email, phone, username, profile, metadata, created, verified)
                """)
            try await connection.run(
                """
                INSERT INTO credentials (id, method_id, user_id, public_key, algorithm, sign_count, backup_eligible,
                    backed_up, aaguid, transports, created_at)
                SELECT * FROM unnest(\(credentialIDs)::bytea[], \(methodIDs)::text[], \(owners)::text[],
                    \(keys)::bytea[], \(algorithms)::int8[], \(counts)::int8[], \(eligible)::bool[],
                    \(backedUp)::bool[], \(aaguids)::text[], \(transports)::text[], \(registered)::float8[])
                """)
        }
    }
}
