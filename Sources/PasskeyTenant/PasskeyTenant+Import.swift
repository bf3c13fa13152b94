import FoundationEssentials
import WebAuthn

extension PasskeyTenant {
    /// Stores many users of the database connection, each with one passkey made elsewhere, in one
    /// transaction (on PostgreSQL, one statement per table): the tenant's bulk path, how a tenant of
    /// a million users is seeded (issue 46) rather than through the Management API's two requests
    /// per user. Each user and passkey is checked as those requests check them (auth0-passkey-api.md
    /// §15.2, §15.3) and stored as they would store them: a new user ID, the email lower-cased, the
    /// passkey confirmed at once with counter 0 and the zero AAGUID. The user then logs in with
    /// `/passkey/challenge` and the webauthn grant.
    ///
    /// Call it with batches of some thousands: each call is one transaction, held while it runs.
    ///
    /// - Parameter users: the users, with their passkeys.
    /// - Returns: the new users' IDs, in the order of `users`.
    /// - Throws: `invalid_request` naming the user's index for an identifier the connection refuses
    ///   or that is malformed, a user handle not of 1–64 bytes or a credential ID not of 1–1023, a
    ///   public key that is no COSE_Key of an allowed algorithm, BS without BE; `auth0_idp_error`
    ///   (409) when an identifier or user handle belongs to a user already, in the store or earlier
    ///   in `users`; `conflict` (409) when a credential ID is registered already. Nothing is stored
    ///   then.
    package func importUsers(_ users: [ImportedUser]) async throws(TenantError) -> [String] {
        let now = services.clock.now()
        let connection = services.configuration.connection
        var rows: [TenantUser] = []
        var credentials: [TenantCredential] = []
        rows.reserveCapacity(users.count)
        credentials.reserveCapacity(users.count)
        for (index, imported) in users.enumerated() {
            var profile = imported.profile
            profile.email = profile.email?.lowercased()
            let algorithm: COSEAlgorithm
            do throws(TenantError) {
                try services.configuration.identifiers.check(profile, connection: connection)
                try profile.validate()
                guard (1...64).contains(imported.userHandle.count) else {
                    throw .invalidRequest("user_handle: 1 to 64 bytes")
                }
                guard (1...1023).contains(imported.credentialID.count) else {
                    throw .invalidRequest("key_id: 1 to 1023 bytes")
                }
                // WebAuthn L3 §6.1.3: BS may be set only with BE.
                guard imported.backupEligible || !imported.backedUp else {
                    throw .invalidRequest("credential_backed_up: a single_device credential is never backed up")
                }
                algorithm = try services.givenKeyAlgorithm(imported.publicKey, field: "public_key")
            } catch {
                throw .invalidRequest("users[\(index)]: \(error.detail)")
            }
            var user = TenantUser.new(profile: profile, metadata: [:], at: now)
            user.userHandle = imported.userHandle
            rows.append(user)
            credentials.append(
                TenantCredential(
                    id: imported.credentialID, methodID: TenantCredential.newMethodID(), userID: user.id,
                    publicKey: imported.publicKey, algorithm: algorithm, signCount: 0,
                    backupEligible: imported.backupEligible, backedUp: imported.backedUp, aaguid: .zero, transports: [],
                    userAgent: nil, createdAt: now, lastAuthenticatedAt: nil))
        }
        try await services.store.insertUsers(rows, credentials: credentials)
        return rows.map(\.id)
    }
}

extension ImportedUser {
    /// The refusal of an import whose user's identifier or user handle is taken (the Management
    /// API's `POST /api/v2/users` answer, auth0-passkey-api.md §15.2).
    static let userExists = TenantError(
        .userExists, status: 409, "A user of the import exists already (an identifier or the user handle is taken).")
    /// The refusal of an import whose passkey's credential ID is registered already (§15.3).
    static let passkeyExists = TenantError(
        .conflict, status: 409, "A passkey of the import is registered already (its credential ID).")
}
