import FoundationEssentials
public import WebAuthn

/// Renewal: credentials valid for long enough, renewed with the refresh token when they are not;
/// API credentials from an exchange of it; and its revocation. One at a time, in call order, and
/// across processes under the storage's lock (``CredentialsManager``).
extension CredentialsManager {

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
        try await serializedUnlocked { () async throws(CredentialsManagerError) in
            try await self.renewIfNeeded(
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
        try await serializedUnlocked { () async throws(CredentialsManagerError) in
            try await self.renewIfNeeded(scope: nil, minTTL: 0, force: true, parameters: parameters, headers: headers)
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
        try await serializedUnlocked { () async throws(CredentialsManagerError) in
            try await self.exchange(
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
        try requireDPoPKey(stored)
        let renewed: Credentials
        do {
            renewed = try await sessionAuthentication.renew(
                withRefreshToken: refreshToken, scope: scope, clientAuthentication: clientAuthentication
            )
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
        try await validateIDToken(credentials.idToken)
        try saveSession(credentials)
        return credentials
    }

    private func revokeNow(headers: [String: String]) async throws(CredentialsManagerError) {
        let lock = try lockStorage()
        defer { lock.release() }
        guard let stored = try read() else { return }
        if let refreshToken = stored.refreshToken {
            do {
                try await authentication.revoke(refreshToken: refreshToken, clientAuthentication: clientAuthentication)
                    .headers(headers).start()
            } catch {
                throw CredentialsManagerError(
                    .revokeFailed, "The refresh token could not be revoked; the credentials are kept.", cause: error)
            }
        }
        try delete(storeKey)
        dpop.clear()
    }

    /// A DPoP-bound session renews only with its key (RFC 9449 §5: the refresh token is bound).
    func requireDPoPKey(_ stored: Credentials) throws(CredentialsManagerError) {
        if StoredSession.isBound(stored), dpop.key == nil {
            throw .dpopKeyMissing
        }
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
        try requireDPoPKey(main)
        let exchanged: Credentials
        do {
            exchanged = try await sessionAuthentication.renew(
                withRefreshToken: refreshToken, audience: audience, scope: scope,
                clientAuthentication: clientAuthentication
            )
            .parameters(parameters).headers(headers).start()
        } catch {
            throw CredentialsManagerError(
                .apiExchangeFailed, "The refresh token could not be exchanged for API credentials.", cause: error)
        }
        let api = APICredentials(exchanged)
        if willExpire(api.expiresAt, within: minTTL) {
            throw .largeMinTTL(minTTL: minTTL, lifetime: lifetime(api.expiresAt))
        }
        if !exchanged.idToken.isEmpty {
            try await validateIDToken(exchanged.idToken)
        }
        let updated = Credentials(
            accessToken: main.accessToken, tokenType: main.tokenType,
            idToken: exchanged.idToken.isEmpty ? main.idToken : exchanged.idToken,
            refreshToken: exchanged.refreshToken ?? refreshToken, expiresAt: main.expiresAt, scope: main.scope,
            recoveryCode: main.recoveryCode)
        try saveSession(updated)
        try save(StoredAPICredentials(audience: audience, scope: scope, credentials: api), forKey: key)
        return api
    }

    /// Runs `operation` after every operation queued before it (``operations``).
    private func serialized<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws(CredentialsManagerError) -> Value
    ) async throws(CredentialsManagerError) -> Value {
        try await operations.enqueue(operation).value.get()
    }

    /// ``serialized(_:)``, with the passphrase asked first when the storage requires one
    /// (``unlock()``): the entry points that read the sealed session and may renew it.
    func serializedUnlocked<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws(CredentialsManagerError) -> Value
    ) async throws(CredentialsManagerError) -> Value {
        try await serialized { () async throws(CredentialsManagerError) in
            try await self.unlock()
            return try await operation()
        }
    }
}
