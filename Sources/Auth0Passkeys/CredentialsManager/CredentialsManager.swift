import BlockingIO
package import FoundationEssentials
public import WebAuthn

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
public actor CredentialsManager {
    /// The client that renews, exchanges and revokes.
    public let authentication: Authentication
    /// The key of the main credentials in the storage.
    public let storeKey: String
    let storage: any CredentialsStorage
    /// Where the isolated code, and so every storage call, runs.
    private let executor = BlockingExecutor(label: "Auth0Passkeys.CredentialsManager")
    private let now: @Sendable () -> Date
    /// The last queued operation; each new one waits for it.
    private var tail: Task<Void, Never>?
    /// How to ask for the passphrase when the storage requires one.
    var passphrasePrompt: (@Sendable () async throws -> Passphrase)?

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - authentication: the client for the tenant the credentials come from.
    ///   - storeKey: the key of the main credentials; `credentials` by default.
    ///   - storage: where to keep the entries; files in the user's data directory by default.
    public init(
        authentication: Authentication, storeKey: String = "credentials",
        storage: any CredentialsStorage = FileCredentialsStorage()
    ) {
        self.init(authentication: authentication, storeKey: storeKey, storage: storage, now: { Date() })
    }

    /// Creates a manager with an injected clock: the seam of the tests.
    package init(
        authentication: Authentication, storeKey: String, storage: any CredentialsStorage,
        now: @escaping @Sendable () -> Date
    ) {
        self.authentication = authentication
        self.storeKey = storeKey
        self.storage = storage
        self.now = now
    }

    /// The manager's own serial executor (see ``CredentialsManager``).
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    // MARK: Storage

    /// Stores credentials as the main entry.
    ///
    /// The renewing methods store what they get; call this only with the credentials of a login.
    ///
    /// - Parameter credentials: the credentials.
    /// - Throws: ``CredentialsManagerError/Code/storeFailed``.
    public func store(credentials: Credentials) throws(CredentialsManagerError) {
        try save(credentials, forKey: storeKey)
    }

    /// Deletes the main entry; API credentials stay.
    ///
    /// - Throws: ``CredentialsManagerError/Code/clearFailed``.
    public func clear() throws(CredentialsManagerError) {
        try delete(storeKey)
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

    /// Deletes every entry of the storage.
    ///
    /// - Throws: ``CredentialsManagerError/Code/clearFailed``.
    public func clearAll() throws(CredentialsManagerError) {
        do {
            try storage.deleteAllEntries()
        } catch {
            throw CredentialsManagerError(.clearFailed, "The storage could not delete its entries.", cause: error)
        }
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

    /// The user of the stored ID token: its payload decoded, the signature not checked (the
    /// token came from the tenant over TLS); `nil` when there is none or it does not decode.
    public var user: UserInfo? {
        guard let idToken = load()?.idToken else { return nil }
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = try? Base64URL.decode(String(parts[1])),
            let claims = try? JSONDecoder().decode([String: JSONValue].self, from: Data(payload))
        else { return nil }
        return try? UserInfo(claims: claims)
    }

    // MARK: Renewal

    /// Credentials valid for at least `minTTL` seconds: the stored ones, or new ones from the
    /// refresh token, which are then stored (spec §9).
    ///
    /// The stored credentials are renewed when their access token expires within `minTTL`, or
    /// when `scope` is given and differs from their scope (compared as sets, lower-cased; include
    /// `openid` in `scope`). A renewal without a new refresh token keeps the old one.
    ///
    /// - Parameters:
    ///   - scope: the scopes wanted, or `nil` to keep the stored ones.
    ///   - minTTL: the seconds the access token must still be valid; 60 by default.
    ///   - parameters: extra members of the refresh request.
    ///   - headers: extra headers of the refresh request.
    /// - Returns: the credentials.
    /// - Throws: ``CredentialsManagerError`` with `noCredentials`, `noRefreshToken`,
    ///   `renewFailed`, `largeMinTTL` (nothing stored) or `storeFailed`.
    public func credentials(
        withScope scope: String? = nil, minTTL: Int = 60, parameters: [String: JSONValue] = [:],
        headers: [String: String] = [:]
    ) async throws(CredentialsManagerError) -> Credentials {
        try await serialized { () async throws(CredentialsManagerError) in
            try await self.unlock()
            return try await self.renewIfNeeded(
                scope: scope, minTTL: minTTL, force: false, parameters: parameters, headers: headers)
        }
    }

    /// Renews the credentials now, whatever their expiry, and stores them.
    ///
    /// - Parameters:
    ///   - parameters: extra members of the refresh request.
    ///   - headers: extra headers of the refresh request.
    /// - Returns: the new credentials.
    /// - Throws: ``CredentialsManagerError`` with `noCredentials`, `noRefreshToken`,
    ///   `renewFailed` or `storeFailed`.
    public func renew(
        parameters: [String: JSONValue] = [:], headers: [String: String] = [:]
    ) async throws(CredentialsManagerError) -> Credentials {
        try await serialized { () async throws(CredentialsManagerError) in
            try await self.unlock()
            return try await self.renewIfNeeded(
                scope: nil, minTTL: 0, force: true, parameters: parameters, headers: headers)
        }
    }

    /// Revokes the refresh token, then deletes the main entry (spec §9).
    ///
    /// Without stored credentials this succeeds and sends nothing; without a refresh token it
    /// deletes the entry and sends nothing. When the revoke request fails the credentials are
    /// kept, so the caller can try again.
    ///
    /// - Parameter headers: extra headers of the revoke request.
    /// - Throws: ``CredentialsManagerError`` with `revokeFailed` or `clearFailed`.
    public func revoke(headers: [String: String] = [:]) async throws(CredentialsManagerError) {
        try await serialized { () async throws(CredentialsManagerError) in
            try await self.revokeNow(headers: headers)
        }
    }

    /// An access token for another API, from the stored refresh token (spec §6.4, §9).
    ///
    /// Stored API credentials for this audience and scope are returned while valid for `minTTL`
    /// more seconds. Otherwise the refresh token is exchanged; the answer's ID token and refresh
    /// token (when it has them) update the main entry, its access token becomes the API
    /// credentials, and both are stored. Each audience and scope has its own entry:
    /// `<audience>` or `<audience>::<scopes, sorted, joined by ::>`.
    ///
    /// - Parameters:
    ///   - audience: the API's audience, such as `https://login.example.com/me/`.
    ///   - scope: the scopes wanted (`openid` is added on the wire).
    ///   - minTTL: the seconds the access token must still be valid; 60 by default.
    ///   - parameters: extra members of the exchange request.
    ///   - headers: extra headers of the exchange request.
    /// - Returns: the API credentials.
    /// - Throws: ``CredentialsManagerError`` with `noCredentials`, `noRefreshToken`,
    ///   `apiExchangeFailed`, `largeMinTTL` or `storeFailed`.
    public func apiCredentials(
        forAudience audience: String, scope: String? = nil, minTTL: Int = 60, parameters: [String: JSONValue] = [:],
        headers: [String: String] = [:]
    ) async throws(CredentialsManagerError) -> APICredentials {
        try await serialized { () async throws(CredentialsManagerError) in
            try await self.unlock()
            return try await self.exchange(
                audience: audience, scope: scope, minTTL: minTTL, parameters: parameters, headers: headers)
        }
    }

    // MARK: The operations

    private func renewIfNeeded(
        scope: String?, minTTL: Int, force: Bool, parameters: [String: JSONValue], headers: [String: String]
    ) async throws(CredentialsManagerError) -> Credentials {
        func current(_ stored: Credentials) -> Bool {
            !force && !willExpire(stored.expiresAt, within: minTTL) && !Self.scopeChanged(stored.scope, scope)
        }
        // Current credentials need no lock. A renewal takes it, then reads again: another process
        // may have renewed meanwhile.
        if let stored = try read(), current(stored) {
            return stored
        }
        let lock = try lockStorage()
        defer { lock.release() }
        guard let stored = try read() else { throw .noCredentials }
        if current(stored) {
            return stored
        }
        guard let refreshToken = stored.refreshToken else { throw .noRefreshToken }
        let renewed: Credentials
        do {
            renewed = try await authentication.renew(withRefreshToken: refreshToken, scope: scope)
                .parameters(parameters).headers(headers).start()
        } catch {
            throw CredentialsManagerError(.renewFailed, "The credentials could not be renewed.", cause: error)
        }
        let credentials = Credentials(
            accessToken: renewed.accessToken, tokenType: renewed.tokenType, idToken: renewed.idToken,
            refreshToken: renewed.refreshToken ?? refreshToken, expiresAt: renewed.expiresAt, scope: renewed.scope,
            recoveryCode: renewed.recoveryCode)
        if willExpire(credentials.expiresAt, within: minTTL) {
            throw .largeMinTTL(minTTL: minTTL, lifetime: lifetime(credentials.expiresAt))
        }
        try save(credentials, forKey: storeKey)
        return credentials
    }

    private func revokeNow(headers: [String: String]) async throws(CredentialsManagerError) {
        let lock = try lockStorage()
        defer { lock.release() }
        guard let stored = try read() else { return }
        if let refreshToken = stored.refreshToken {
            do {
                try await authentication.revoke(refreshToken: refreshToken).headers(headers).start()
            } catch {
                throw CredentialsManagerError(
                    .revokeFailed, "The refresh token could not be revoked; the credentials are kept.", cause: error)
            }
        }
        try delete(storeKey)
    }

    private func exchange(
        audience: String, scope: String?, minTTL: Int, parameters: [String: JSONValue], headers: [String: String]
    ) async throws(CredentialsManagerError) -> APICredentials {
        let key = Self.apiKey(audience, scope)
        func current() -> APICredentials? {
            guard let bytes = try? storage.entry(forKey: key),
                let stored = try? JSONDecoder().decode(APICredentials.self, from: Data(bytes)),
                !willExpire(stored.expiresAt, within: minTTL), !Self.apiScopeChanged(stored.scope, scope)
            else { return nil }
            return stored
        }
        // As in renewIfNeeded: the lock only for an exchange, and a second look once it is held.
        if let stored = current() {
            return stored
        }
        let lock = try lockStorage()
        defer { lock.release() }
        if let stored = current() {
            return stored
        }
        guard let main = try read() else { throw .noCredentials }
        guard let refreshToken = main.refreshToken else { throw .noRefreshToken }
        let exchanged: Credentials
        do {
            exchanged = try await authentication.renew(withRefreshToken: refreshToken, audience: audience, scope: scope)
                .parameters(parameters).headers(headers).start()
        } catch {
            throw CredentialsManagerError(
                .apiExchangeFailed, "The refresh token could not be exchanged for API credentials.", cause: error)
        }
        let api = APICredentials(exchanged)
        if willExpire(api.expiresAt, within: minTTL) {
            throw .largeMinTTL(minTTL: minTTL, lifetime: lifetime(api.expiresAt))
        }
        let updated = Credentials(
            accessToken: main.accessToken, tokenType: main.tokenType,
            idToken: exchanged.idToken.isEmpty ? main.idToken : exchanged.idToken,
            refreshToken: exchanged.refreshToken ?? refreshToken, expiresAt: main.expiresAt, scope: main.scope,
            recoveryCode: main.recoveryCode)
        try save(updated, forKey: storeKey)
        try save(StoredAPICredentials(audience: audience, scope: scope, credentials: api), forKey: key)
        return api
    }

    // MARK: Helpers

    /// Runs `operation` after every operation queued before it.
    private func serialized<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws(CredentialsManagerError) -> Value
    ) async throws(CredentialsManagerError) -> Value {
        let previous = tail
        let task = Task { () async -> Result<Value, CredentialsManagerError> in
            await previous?.value
            do throws(CredentialsManagerError) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
        tail = Task { _ = await task.value }
        return try await task.value.get()
    }

    /// The storage's lock across processes, for one read–renew–write (``CredentialsStorage/lock()``).
    private func lockStorage() throws(CredentialsManagerError) -> CredentialsStorageLock {
        do {
            return try storage.lock()
        } catch {
            throw CredentialsManagerError(.readFailed, "The storage could not be locked.", cause: error)
        }
    }

    /// The main entry in its stored form (``Credentials/encode(to:)``); `nil` when missing or
    /// unreadable.
    private func load() -> Credentials? {
        (try? read()) ?? nil
    }

    /// The main entry; `nil` when missing.
    ///
    /// - Throws: ``CredentialsManagerError/Code/readFailed`` when it exists but cannot be read
    ///   (sealed under another key, altered, not credentials), so that it is not taken for none.
    private func read() throws(CredentialsManagerError) -> Credentials? {
        let bytes: [UInt8]?
        do {
            bytes = try storage.entry(forKey: storeKey)
        } catch {
            throw CredentialsManagerError(.readFailed, "The storage could not read the credentials.", cause: error)
        }
        guard let bytes else { return nil }
        do {
            return try JSONDecoder().decode(Credentials.self, from: Data(bytes))
        } catch {
            throw CredentialsManagerError(.readFailed, "The stored credentials do not decode.")
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

    private func willExpire(_ expiresAt: Date, within minTTL: Int) -> Bool {
        expiresAt < now().addingTimeInterval(TimeInterval(minTTL))
    }

    private func lifetime(_ expiresAt: Date) -> Int {
        Int(expiresAt.timeIntervalSince(now()))
    }

    /// Whether a renewal must change the scope: both known and different as sets.
    static func scopeChanged(_ stored: String?, _ requested: String?) -> Bool {
        guard let stored, let requested else { return false }
        return Scope.values(stored) != Scope.values(requested)
    }

    /// As ``scopeChanged(_:_:)``, with a stored `openid` ignored when `requested` lacks it (the
    /// exchange adds `openid` on the wire).
    static func apiScopeChanged(_ stored: String, _ requested: String?) -> Bool {
        guard let requested else { return false }
        let wanted = Scope.values(requested)
        var have = Scope.values(stored)
        if !wanted.contains("openid") { have.remove("openid") }
        return have != wanted
    }

    /// `<audience>`, or `<audience>::<scopes sorted, joined by ::>` (Auth0.swift 2.16+).
    static func apiKey(_ audience: String, _ scope: String?) -> String {
        guard let scope, !Scope.values(scope).isEmpty else { return audience }
        return ([audience] + Scope.values(scope).sorted()).joined(separator: "::")
    }
}
