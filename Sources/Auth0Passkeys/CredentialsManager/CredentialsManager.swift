import BlockingIO
package import FoundationEssentials
import WebAuthn

/// Keeps a user's credentials, renews them with the refresh token when they are about to expire,
/// exchanges the refresh token for API credentials, and revokes it on sign-out (spec §9, the
/// semantics of Auth0.swift 3's `CredentialsManager`).
///
/// ```swift
/// let manager = CredentialsManager(authentication: auth)
/// try await manager.store(credentials: try await auth.login(passkey: passkey, challenge: challenge).start())
///
/// // Later, anywhere: valid for at least another minute, renewed if need be.
/// let credentials = try await manager.credentials()
///
/// // A My Account token from the same refresh token.
/// let myAccount = try await manager.apiCredentials(
///     forAudience: "https://login.example.com/me/", scope: "create:me:authentication_methods")
///
/// try await manager.revoke()   // revoke the refresh token, then forget everything
/// ```
///
/// ``credentials(withScope:minTTL:parameters:headers:)``, ``renew(parameters:headers:)``,
/// ``apiCredentials(forAudience:scope:minTTL:parameters:headers:)`` and ``revoke(headers:)``
/// run one at a time, in call order: when many tasks ask for credentials that need renewing,
/// the first renews and the others get what it stored, so the refresh token is spent once.
/// Across managers and processes, each renewal holds the storage's lock
/// (``CredentialsStorage/lock()``; a `flock` for ``FileCredentialsStorage``) from its read to its
/// write, so a second process renewing at once reads what the first stored.
///
/// The storage is synchronous and may block (``FileCredentialsStorage`` `fsync`s every write), so
/// the manager runs its isolated code, and with it every storage call, on a serial executor of
/// its own, whose dispatch queue has a thread of its own, never on Swift's concurrency pool: a
/// blocked storage stalls this manager only, not every task of the process. An executor rather
/// than hopping to a queue around each call, because a hop would suspend the actor and let
/// another call in between a load and the save that follows it; with the executor each
/// synchronous method stays one uninterrupted step. The network calls are not isolated to the
/// manager and run on the pool as usual.
///
/// A regular web application (a confidential client) keeps its users' sessions the same way: given
/// its ``ClientAuthentication``, the manager authenticates every renewal, exchange and revocation
/// with it (RFC 6749 §6, RFC 7009 §2.1), as ``WebAuth/clientAuthentication(_:)`` does the code
/// exchange.
public actor CredentialsManager {
    /// The client that renews, exchanges and revokes.
    public nonisolated let authentication: Authentication
    /// The session's DPoP key and nonce (spec §16): ``authentication``'s when it uses DPoP, else
    /// one of the manager's own. The key of stored DPoP-bound credentials is kept in their
    /// sealed entry and comes back here when they are read, so renewals, exchanges and the
    /// caller's API calls (``MyAccount/useDPoP(_:)``, ``DPoP/authorize(_:accessToken:tokenType:)``)
    /// sign with it, in this process or a later one; clearing the session forgets it.
    public nonisolated let dpop: DPoP
    /// ``authentication`` signing with ``dpop``: what renews and exchanges. A refresh carries a
    /// proof only once a key exists, so a session without one renews as before.
    let sessionAuthentication: Authentication
    /// The key of the main credentials in the storage.
    public let storeKey: String
    /// What checks every ID token before it is stored, by ``store(credentials:)`` and by each
    /// renewal and exchange; `nil` to store them as received, as Auth0.swift's manager does.
    /// With one, ``user`` reads a validated token.
    public let idTokenValidator: IDTokenValidator?
    /// How the application authenticates when it renews, exchanges or revokes the refresh token:
    /// ``ClientAuthentication/none`` for a public client, a regular web application's secret
    /// otherwise (RFC 6749 §2.3.1).
    public nonisolated let clientAuthentication: ClientAuthentication
    let storage: any CredentialsStorage
    /// Where the isolated code, and so every storage call, runs.
    private let executor = BlockingExecutor(label: "Auth0Passkeys.CredentialsManager")
    private let now: @Sendable () -> Date
    /// The operations that hand out or change credentials, run one at a time in call order.
    var operations = OperationChain()
    /// How to ask for the passphrase when the storage requires one.
    var passphrasePrompt: (@Sendable () async throws -> Passphrase)?

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - authentication: the client for the tenant the credentials come from.
    ///   - storeKey: the key of the main credentials; `credentials` by default.
    ///   - storage: where to keep the entries; files in the user's data directory by default.
    ///   - idTokenValidator: what checks each ID token before it is stored (spec §14.5); `nil`,
    ///     the default, stores tokens as received.
    ///   - clientAuthentication: how the application authenticates when it renews and revokes:
    ///     ``ClientAuthentication/none``, a public client, by default; the secret of a regular
    ///     web application, the one its code exchange used.
    public init(
        authentication: Authentication, storeKey: String = "credentials",
        storage: any CredentialsStorage = FileCredentialsStorage(), idTokenValidator: IDTokenValidator? = nil,
        clientAuthentication: ClientAuthentication = .none
    ) {
        self.init(
            authentication: authentication, storeKey: storeKey, storage: storage, idTokenValidator: idTokenValidator,
            clientAuthentication: clientAuthentication, now: { Date() })
    }

    /// Creates a manager with an injected clock: the seam of the tests.
    package init(
        authentication: Authentication, storeKey: String, storage: any CredentialsStorage,
        idTokenValidator: IDTokenValidator? = nil, clientAuthentication: ClientAuthentication = .none,
        now: @escaping @Sendable () -> Date
    ) {
        self.authentication = authentication
        self.clientAuthentication = clientAuthentication
        self.dpop = authentication.dpop ?? DPoP()
        self.sessionAuthentication = authentication.useDPoP(dpop)
        self.storeKey = storeKey
        self.storage = storage
        self.idTokenValidator = idTokenValidator
        self.now = now
    }

    /// The manager's own serial executor (see ``CredentialsManager``).
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    // MARK: Storage

    /// Stores credentials as the main entry, once the ID token passes ``idTokenValidator``, when
    /// the manager has one.
    ///
    /// The renewing methods store what they get; call this only with the credentials of a login.
    /// A Web Auth login's token has been validated with its nonce and max age already
    /// (``WebAuth``); this check, without them, costs one signature verification.
    ///
    /// - Parameter credentials: the credentials.
    /// - Throws: ``CredentialsManagerError/Code/invalidIDToken`` (nothing stored),
    ///   ``CredentialsManagerError/Code/storeFailed``.
    public func store(credentials: Credentials) async throws(CredentialsManagerError) {
        try await validateIDToken(credentials.idToken)
        try saveSession(credentials)
    }

    /// Deletes the main entry, and with it the session's DPoP key (``dpop`` forgets it too); API
    /// credentials stay.
    ///
    /// - Throws: ``CredentialsManagerError/Code/clearFailed``.
    public func clear() throws(CredentialsManagerError) {
        try delete(storeKey)
        dpop.clear()
    }

    /// Stores API credentials for an audience and the scope they were asked with, as
    /// ``apiCredentials(forAudience:scope:minTTL:parameters:headers:)`` does with what it gets
    /// (Auth0.swift's `store(apiCredentials:forAudience:forScope:)`).
    ///
    /// - Parameters:
    ///   - apiCredentials: the credentials.
    ///   - audience: the API's audience.
    ///   - scope: the scope they were asked with, or `nil`.
    /// - Throws: ``CredentialsManagerError/Code/storeFailed``.
    public func store(apiCredentials: APICredentials, forAudience audience: String, forScope scope: String? = nil)
        throws(CredentialsManagerError)
    {
        try save(
            StoredAPICredentials(audience: audience, scope: scope, credentials: apiCredentials),
            forKey: Self.apiKey(audience, scope))
    }

    /// Deletes the API credentials of one audience and scope: the entry
    /// ``store(apiCredentials:forAudience:forScope:)`` made with the same audience and scope
    /// (compared as sets); deleting a missing entry succeeds. The main credentials stay.
    ///
    /// - Parameters:
    ///   - audience: the API's audience.
    ///   - scope: the scope they were asked with, or `nil`.
    /// - Throws: ``CredentialsManagerError/Code/clearFailed``.
    public func clear(forAudience audience: String, scope: String? = nil) throws(CredentialsManagerError) {
        try delete(Self.apiKey(audience, scope))
    }

    /// The stored API credentials, by audience (then scope), expired ones included. An entry
    /// that cannot be read (sealed under another key, altered) is left out; an entry stored by
    /// an earlier version, which did not record its audience, lists its storage key as the
    /// audience and no scope, so ``clear(forAudience:scope:)`` with those still deletes it.
    ///
    /// - Returns: the credentials.
    /// - Throws: ``CredentialsManagerError/Code/readFailed`` when the storage cannot be listed.
    public func storedAPICredentials() throws(CredentialsManagerError) -> [StoredAPICredentials] {
        let keys: [String]
        do {
            keys = try storage.entryKeys()
        } catch {
            throw CredentialsManagerError(.readFailed, "The storage could not list its entries.", cause: error)
        }
        return keys.filter { $0 != storeKey && $0 != Self.passphraseKey }.compactMap { key in
            guard let bytes = try? storage.entry(forKey: key),
                var stored = try? JSONDecoder().decode(StoredAPICredentials.self, from: Data(bytes))
            else { return nil }
            if stored.audience.isEmpty {
                stored.audience = key
            }
            return stored
        }
        .sorted { ($0.audience, $0.scope ?? "") < ($1.audience, $1.scope ?? "") }
    }

    /// Deletes every entry of the storage, and forgets the session's DPoP key.
    ///
    /// - Throws: ``CredentialsManagerError/Code/clearFailed``.
    public func clearAll() throws(CredentialsManagerError) {
        do {
            try storage.deleteAllEntries()
        } catch {
            throw CredentialsManagerError(.clearFailed, "The storage could not delete its entries.", cause: error)
        }
        dpop.clear()
    }

    /// Whether credentials are stored whose access token is valid for at least `minTTL` more
    /// seconds. The refresh token does not count.
    ///
    /// - Parameter minTTL: the seconds the access token must still be valid.
    /// - Returns: whether it is.
    public func hasValid(minTTL: Int = 0) -> Bool {
        guard let stored = load() else { return false }
        return !willExpire(stored.expiresAt, within: minTTL)
    }

    /// Whether the stored credentials have a refresh token.
    ///
    /// - Returns: whether they can be renewed.
    public func canRenew() -> Bool {
        load()?.refreshToken != nil
    }

    /// The user of the stored ID token: its payload decoded; `nil` when there is none or it does
    /// not decode. With an ``idTokenValidator`` the token passed it when it was stored; without
    /// one, its signature was never checked (it came from the tenant over TLS).
    public var user: UserInfo? {
        guard let idToken = load()?.idToken, let claims = UnverifiedJWT(idToken)?.claims else { return nil }
        return try? UserInfo(claims: claims)
    }

    // MARK: Storage helpers

    /// Checks an ID token with ``idTokenValidator``, when there is one (spec §14.5, without a
    /// nonce or max age: those belong to the login that asked for them).
    ///
    /// - Throws: ``CredentialsManagerError/Code/invalidIDToken``.
    func validateIDToken(_ idToken: String) async throws(CredentialsManagerError) {
        guard let idTokenValidator else { return }
        do {
            try await idTokenValidator.validate(idToken)
        } catch {
            throw CredentialsManagerError(.invalidIDToken, "The tenant's ID token failed validation.", cause: error)
        }
    }

    /// The storage's lock across processes, for one read–renew–write (``CredentialsStorage/lock()``).
    func lockStorage() throws(CredentialsManagerError) -> CredentialsStorageLock {
        do {
            return try storage.lock()
        } catch {
            throw CredentialsManagerError(.readFailed, "The storage could not be locked.", cause: error)
        }
    }

    /// The main entry in its stored form (``Credentials/encode(to:)``); `nil` when missing or
    /// unreadable.
    func load() -> Credentials? {
        (try? read()) ?? nil
    }

    /// The main entry; `nil` when missing.
    ///
    /// - Throws: ``CredentialsManagerError/Code/readFailed`` when it exists but cannot be read
    ///   (sealed under another key, altered, not credentials), so that it is not taken for none.
    func read() throws(CredentialsManagerError) -> Credentials? {
        let bytes: [UInt8]?
        do {
            bytes = try storage.entry(forKey: storeKey)
        } catch {
            throw CredentialsManagerError(.readFailed, "The storage could not read the credentials.", cause: error)
        }
        guard let bytes else { return nil }
        let session: StoredSession
        do {
            session = try JSONDecoder().decode(StoredSession.self, from: Data(bytes))
        } catch {
            throw CredentialsManagerError(.readFailed, "The stored credentials do not decode.")
        }
        // The tokens are bound to the key stored with them, whatever key this process made.
        if let key = session.dpopKey {
            dpop.use(key)
        }
        return session.credentials
    }

    /// Stores `credentials` as the main entry, with ``dpop``'s key when they are DPoP-bound.
    /// Credentials that are not end the use of any key: a later refresh must not carry a proof of
    /// a key nothing is bound to.
    func saveSession(_ credentials: Credentials) throws(CredentialsManagerError) {
        let bound = StoredSession.isBound(credentials)
        try save(StoredSession(credentials: credentials, dpopKey: bound ? dpop.key : nil), forKey: storeKey)
        if !bound {
            dpop.clear()
        }
    }

    /// Stores the JSON of `value` (keys sorted) under `key`.
    func save(_ value: some Encodable, forKey key: String) throws(CredentialsManagerError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let bytes: Data
        do {
            bytes = try encoder.encode(value)
        } catch {
            // Only a non-finite expiry fails to encode; writing nothing would lose the entry.
            throw CredentialsManagerError(.storeFailed, "The credentials could not be encoded.", cause: error)
        }
        do {
            try storage.setEntry(Array(bytes), forKey: key)
        } catch {
            throw CredentialsManagerError(.storeFailed, "The storage could not save the credentials.", cause: error)
        }
    }

    func delete(_ key: String) throws(CredentialsManagerError) {
        do {
            try storage.deleteEntry(forKey: key)
        } catch {
            throw CredentialsManagerError(.clearFailed, "The storage could not delete the credentials.", cause: error)
        }
    }

    func willExpire(_ expiresAt: Date, within minTTL: Int) -> Bool {
        expiresAt < now().addingTimeInterval(TimeInterval(minTTL))
    }

    func lifetime(_ expiresAt: Date) -> Int {
        Int(expiresAt.timeIntervalSince(now()))
    }
}
