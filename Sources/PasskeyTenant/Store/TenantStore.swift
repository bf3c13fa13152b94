import FoundationEssentials
import WebAuthn

/// Everything the tenant keeps between requests: users and their passkeys, pending sessions,
/// refresh tokens, Web Auth's login transactions, authorization codes, login sessions and revoked
/// access tokens, the DPoP proofs seen lately, the failed attempts of the last window, and settings
/// (the signing key, the generated client IDs, the DPoP nonce key).
///
/// Whatever must hold across requests holds in the store, not in a process, so that several
/// tenant instances over one shared database (`PostgresTenantStore`) answer as one: each
/// single-use secret is taken in one statement, refresh rotation and code redemption are one
/// transaction, and a counter moves only from the value it was verified against.
/// `SQLiteTenantStore` is the one-process store.
///
/// Secrets are stored as SHA-256 digests only (`auth_session`, refresh tokens, codes); the signing
/// key is the one secret kept as is, since tokens must stay valid across restarts.
///
/// Every method throws ``TenantError`` only: `server_error` (500) for a fault of the database,
/// and the refusals each method names.
protocol TenantStore: Sendable {
    /// Closes the store: a PostgreSQL store's connections close and its pool's task ends; a
    /// SQLite store has nothing to close before its release. Calls after it may fail with
    /// `temporarily_unavailable`.
    func close() async

    // MARK: Settings

    /// The stored value of `key`, or `make()`'s, stored now, when there is none. When two
    /// instances store one at once, both get the value that was stored first.
    func setting(_ key: String, orStore make: @escaping @Sendable () throws -> String) async throws(TenantError)
        -> String

    // MARK: Users and passkeys

    /// The first of `profile`'s identifiers that already belongs to a user, if any
    /// (`email`, `phone_number`, `username`).
    func takenIdentifier(of profile: UserProfile) async throws(TenantError) -> String?
    /// Stores a new user with their first passkey, in one transaction.
    ///
    /// - Throws: `invalid_request` (`TenantServices.userAlreadyExists`) when an identifier belongs
    ///   to a user already, or the credential ID is registered already; nothing is stored then.
    func createUser(_ user: TenantUser, credential: TenantCredential) async throws(TenantError)
    /// Adds a passkey to an existing user.
    ///
    /// - Throws: `invalid_request` when the credential ID is registered already; `not_found` when
    ///   the user is gone.
    func addCredential(_ credential: TenantCredential) async throws(TenantError)
    /// The user with this ID.
    func user(id: String) async throws(TenantError) -> TenantUser?
    /// The credential with this ID and its owner.
    func credential(id: [UInt8]) async throws(TenantError) -> (TenantCredential, TenantUser)?
    /// The credential with this ID, its owner, and the owner's failed attempts at or after `since`
    /// (the attempt limiter's key ``AttemptLimiter/Key/user(_:)``; nil for none): what a login
    /// looks up before it verifies, read together.
    func loginCredential(id: [UInt8], failuresSince since: Date) async throws(TenantError)
        -> (TenantCredential, TenantUser, FailureWindow?)?
    /// A user's passkeys, oldest first.
    func credentials(userID: String) async throws(TenantError) -> [TenantCredential]
    /// Stores what a verified assertion changed: the counter, BS, the time, only while the stored
    /// counter is `previousSignCount` (compare-and-set), so two concurrent assertions of one
    /// security key cannot both move it forward; with `refresh`, the login's refresh token too, in
    /// the same transaction, stored only when the update applied (the webauthn grant's writes).
    ///
    /// - Returns: whether the update applied.
    func recordAssertion(_ update: AssertionUpdate, refresh: (grant: RefreshGrant, key: StoredValue)?)
        async throws(TenantError) -> Bool
    /// Names one of a user's passkeys.
    ///
    /// - Returns: the renamed passkey, or nil when the user has no passkey with this method ID.
    func renameCredential(methodID: String, userID: String, name: String) async throws(TenantError)
        -> TenantCredential?
    /// Stores an upstream connection's user at a login (``UpstreamConnection``): a new one as given;
    /// a known one (the same `oidc|NAME|SUB` ID) keeps its handle and creation time and takes the
    /// profile and `email_verified` the upstream gives now. Its identifiers are not the database
    /// connection's, so no identifier is ever taken.
    ///
    /// - Returns: the stored user.
    func federatedUser(_ user: TenantUser) async throws(TenantError) -> TenantUser
    /// Deletes one of a user's passkeys.
    ///
    /// - Returns: whether there was such a passkey.
    func deleteCredential(methodID: String, userID: String) async throws(TenantError) -> Bool

    // MARK: The Management API (auth0-passkey-api.md §15)

    /// Stores a new user with no passkey.
    ///
    /// - Throws: `auth0_idp_error` (409) when an identifier belongs to a user already.
    func insertUser(_ user: TenantUser) async throws(TenantError)
    /// One page of the users `filter` keeps, oldest first (then by ID), and with `counting` how many
    /// it keeps in all: `GET /api/v2/users` and `users-by-email` read through it, paged and counted
    /// in the database.
    ///
    /// - Parameters:
    ///   - filter: the users to read.
    ///   - offset: how many of them to skip.
    ///   - limit: the most to read; nil for all.
    ///   - counting: whether to count them all (`COUNT(*)`); `total` is nil otherwise.
    func users(_ filter: UserFilter, offset: Int, limit: Int?, counting: Bool) async throws(TenantError)
        -> (users: [TenantUser], total: Int?)
    /// Deletes a user with their passkeys, refresh tokens, login sessions and memberships, and
    /// with the users linked to it (its secondary identities). A linked user's ID names no user.
    ///
    /// - Returns: whether there was such a user.
    func deleteUser(id: String) async throws(TenantError) -> Bool
    /// Adds a posted passkey to an existing user.
    ///
    /// - Throws: `inexistent_user` (404) when the user is gone; `conflict` (409) when the credential
    ///   ID is registered already, to any user.
    func insertPostedCredential(_ credential: TenantCredential) async throws(TenantError)
    /// Stores new users and their passkeys, in one transaction: the bulk import
    /// (``PasskeyTenant/importUsers(_:)``), whose checks the values passed.
    ///
    /// - Throws: `auth0_idp_error` (409, ``ImportedUser/userExists``) when an identifier or user
    ///   handle belongs to a user already, in the store or earlier in `users`; `conflict` (409,
    ///   ``ImportedUser/passkeyExists``) when a credential ID is registered already; nothing is
    ///   stored then.
    func insertUsers(_ users: [TenantUser], credentials: [TenantCredential]) async throws(TenantError)

    // MARK: User metadata and account linking

    /// Changes the user `id` names with `change`, in one transaction holding its row, and stores
    /// the profile, identifiers, `email_verified`, both metadata and `updated_at` it leaves.
    ///
    /// - Returns: the changed user; nil when there is no such user of its own (none, or linked).
    /// - Throws: what `change` throws; `auth0_idp_error` (409) when a changed identifier belongs to
    ///   another user; nothing is stored then.
    func updateUser(id: String, _ change: @escaping @Sendable (inout TenantUser) throws(TenantError) -> Void)
        async throws(TenantError) -> TenantUser?
    /// Links `secondaryID` to `primaryID` as its secondary identity, in one transaction.
    ///
    /// - Throws: `inexistent_user` (404) when either is no user of its own (none, or linked
    ///   already: ``TenantServices/alreadyLinked`` for the secondary); `invalid_request` when the
    ///   secondary has linked identities of its own.
    func linkUser(_ secondaryID: String, to primaryID: String, at time: Date) async throws(TenantError)
    /// Makes `secondaryID`, linked to `primaryID`, a user of its own again.
    ///
    /// - Returns: whether it was linked to `primaryID`.
    func unlinkUser(_ secondaryID: String, from primaryID: String) async throws(TenantError) -> Bool
    /// The users linked to `primaryID`, in the order they were linked.
    func linkedUsers(primaryID: String) async throws(TenantError) -> [TenantUser]

    // MARK: Organizations (auth0-passkey-api.md §17)

    /// Whether the tenant made `userID` a member of `organizationID` at a signup or a login.
    func isMember(userID: String, of organizationID: String) async throws(TenantError) -> Bool
    /// Makes `userID` a member of `organizationID`; a member already stays one.
    func addMember(userID: String, to organizationID: String, at time: Date) async throws(TenantError)

    // MARK: Expiring records (``ExpiringRecord``: sessions, transactions, codes, refresh tokens, proofs)

    /// Stores `record` under `key`, unless a record is stored under it already; with `time`, the
    /// table's records that expired at or before it go first, in the same transaction.
    ///
    /// - Returns: whether it was stored: false when `key` was taken (a DPoP proof seen before).
    @discardableResult
    func insert<Record: ExpiringRecord>(_ record: Record, key: StoredValue, expiring time: Date?)
        async throws(TenantError) -> Bool
    /// Removes and returns the live record under `key`, in one statement (`DELETE … RETURNING`):
    /// of two callers at any instances, one gets it. The table's expired records go too: at every
    /// take in SQLite, at most once a minute per table and instance in PostgreSQL (``SweepSchedule``,
    /// off the login's path).
    func take<Record: ExpiringRecord>(_ type: Record.Type, key: StoredValue, at time: Date) async throws(TenantError)
        -> Record?
    /// The live record under `key`; with `expiring`, the table's records that expired at or before
    /// `time` go first, in the same transaction (a write), else read only.
    func peek<Record: ExpiringRecord>(_ type: Record.Type, key: StoredValue, at time: Date, expiring: Bool)
        async throws(TenantError) -> Record?
    /// Changes the live record under `key` with `change`, in one transaction holding its row
    /// (`SELECT … FOR UPDATE`), so that two callers at any instances change it one after the other.
    ///
    /// - Returns: the record as it was before the change; nil when there is no live record.
    func update<Record: ExpiringRecord>(
        _ type: Record.Type, key: StoredValue, at time: Date, _ change: @escaping @Sendable (inout Record) -> Void
    ) async throws(TenantError) -> Record?
    /// Removes the record under `key`, live or not.
    func delete<Record: ExpiringRecord>(_ type: Record.Type, key: StoredValue) async throws(TenantError)

    // MARK: Refresh tokens (RFC 6749 §6, OAuth 2.0 Security BCP §4.14)

    /// Uses a refresh token once: marks it rotated and stores its successor of the same family,
    /// in one transaction holding the token's row. A rotated token presented again deletes its family.
    ///
    /// - Returns: the grant, or nil when the token is unknown, expired, rotated or for another client.
    func rotateRefreshToken(
        digest: [UInt8], clientID: String, successor: [UInt8], expiresAt: Date, at time: Date
    ) async throws(TenantError) -> RefreshGrant?
    /// Revokes a refresh token and every token rotated from the same login (RFC 7009 §2.1).
    ///
    /// - Returns: whether the token was known for this client.
    @discardableResult
    func revokeRefreshToken(digest: [UInt8], clientID: String) async throws(TenantError) -> Bool
    /// The grant of a live refresh token of `clientID`: known, not expired, not rotated. A rotated
    /// token presented again is a replay: the whole family is deleted.
    func refreshGrant(digest: [UInt8], clientID: String, at time: Date) async throws(TenantError) -> RefreshGrant?

    // MARK: Web Auth (auth0-passkey-api.md §14)

    /// Redeems a code once, in one transaction; a replayed code revokes what it issued
    /// (RFC 6749 §4.1.2).
    func redeemCode(digest: [UInt8], at time: Date, revokedUntil: Date) async throws(TenantError) -> CodeRedemption

    // MARK: The attempt limiter (Auth0's brute-force protection, auth0-passkey-api.md §7.1)

    /// The failures of each of `keys` at or after `since` (keys with none are absent).
    func failures(of keys: [String], since: Date) async throws(TenantError) -> [String: FailureWindow]
    /// Counts one failure of each of `keys` at `time`, in one transaction; failures before
    /// `forgetBefore` (of any key) are deleted on the way.
    func recordFailure(of keys: [String], at time: Date, forgetBefore: Date) async throws(TenantError)
}

extension TenantStore {
    /// ``loginCredential(id:failuresSince:)`` as ``credential(id:)`` then ``failures(of:since:)``.
    func loginCredential(id: [UInt8], failuresSince since: Date) async throws(TenantError)
        -> (TenantCredential, TenantUser, FailureWindow?)?
    {
        guard let (credential, user) = try await credential(id: id) else { return nil }
        let key = AttemptLimiter.Key.user(user.id).storageKey
        return (credential, user, try await failures(of: [key], since: since)[key])
    }

    /// The users whose email is `email`, compared without regard to case, oldest first.
    func users(email: String) async throws(TenantError) -> [TenantUser] {
        try await users(UserFilter(email: email), offset: 0, limit: nil, counting: false).users
    }

    /// ``insert(_:key:expiring:)`` that leaves the table's expired records alone.
    @discardableResult
    func insert<Record: ExpiringRecord>(_ record: Record, key: StoredValue) async throws(TenantError) -> Bool {
        try await insert(record, key: key, expiring: nil)
    }

    /// ``peek(_:key:at:expiring:)`` read only.
    func peek<Record: ExpiringRecord>(_ type: Record.Type, key: StoredValue, at time: Date) async throws(TenantError)
        -> Record?
    {
        try await peek(type, key: key, at: time, expiring: false)
    }
}
