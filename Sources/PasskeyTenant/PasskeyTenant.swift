import FoundationEssentials
public import Logging
import WebAuthn

/// A local Auth0-compatible tenant: the passkey endpoints of the Authentication API, the token
/// endpoint, My Account's passkey enrollment, JWKS and discovery, and Web Auth (`/authorize` with
/// a server-rendered passkey login page, the authorization code grant with PKCE, `/v2/logout`),
/// with every WebAuthn response verified by the core's ``RelyingParty`` (auth0-passkey-api.md;
/// its §12 is the checklist, §14 Web Auth's).
///
/// The operations are plain async functions, so tests and benchmarks can drive a ceremony
/// without HTTP; ``router()`` puts them behind Hummingbird, and ``run(host:port:tls:onStart:)``
/// serves them until SIGINT or SIGTERM.
///
/// ```swift
/// let tenant = try await PasskeyTenant(configuration: .init(), database: ":memory:")
/// let challenge = try await tenant.signupChallenge(
///     .init(clientID: tenant.clientID, userProfile: .init(email: "ada@example.com")))
/// // ... the authenticator answers challenge.options ...
/// let tokens = try await tenant.token(.init(
///     grantType: TokenRequest.webAuthnGrant, clientID: tenant.clientID,
///     authSession: challenge.authSession, authnResponse: .init(registration), scope: "openid"))
/// ```
public final class PasskeyTenant: Sendable {
    /// The configuration, with the client ID resolved.
    public let configuration: TenantConfiguration
    let store: any TenantStore
    let signer: TokenSigner
    let limiter: AttemptLimiter
    let clock: TenantClock
    let logger: Logger
    /// The machine-to-machine client's ID: the one client that may use the client credentials
    /// grant, for Management API tokens (auth0-passkey-api.md §15.1).
    public let managementClientID: String
    /// The machine-to-machine client's secret: 64 base64url characters, generated with the
    /// database and kept in it, so a restarted tenant keeps its client. Never printed.
    public let managementClientSecret: Secret
    /// The `DPoP-Nonce` values handed out and accepted (RFC 9449 §8), under a key every
    /// instance on the database shares.
    let dpopNonces: DPoPNonces

    /// Opens a tenant on a database, creating its schema, signing key, client ID and
    /// machine-to-machine client on first use.
    ///
    /// - Parameters:
    ///   - configuration: the tenant's domain, application, connection and limits.
    ///   - database: a PostgreSQL URL, `postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME` (or
    ///     `postgresql://…`; a Unix socket as `postgres://USER@/DBNAME?host=/socket/dir`, see
    ///     ``PostgresURL``), which any number of tenant instances may share; else a SQLite file path,
    ///     or `:memory:`, for this process alone.
    ///   - clock: where time is read; the system clock by default.
    ///   - logger: where requests are logged (method, path, status; never a secret); none by default.
    ///     A PostgreSQL store's pool logs its connection failures here too (never a password).
    /// - Throws: `invalid_configuration` for a malformed PostgreSQL URL; `temporarily_unavailable`
    ///   when the PostgreSQL server cannot be reached; `server_error` when the database cannot be
    ///   opened or migrated.
    public init(
        configuration: TenantConfiguration = TenantConfiguration(), database: String = ":memory:",
        clock: TenantClock = .system,
        logger: Logger = Logger(label: "passkey-tenant", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(TenantError) {
        let store: any TenantStore =
            if PostgresURL.isPostgres(database) {
                try await PostgresTenantStore(url: PostgresURL(database), logger: logger)
            } else {
                try SQLiteTenantStore(path: database)
            }
        var configuration = configuration
        if configuration.clientID == nil {
            configuration.clientID = try await store.setting("client_id") { Self.newClientID() }
        }
        self.configuration = configuration
        self.managementClientID = try await store.setting("m2m_client_id") { Self.newClientID() }
        self.managementClientSecret = Secret(
            try await store.setting("m2m_client_secret") { Secret.random(byteCount: 48).text })
        self.store = store
        self.signer = try await TokenSigner.load(from: store, given: configuration.signingKeyPEM)
        self.limiter = AttemptLimiter(limits: configuration.attemptLimits, clock: clock, store: store)
        self.dpopNonces = DPoPNonces(key: try await DPoPNonces.key(in: store), clock: clock)
        self.clock = clock
        self.logger = logger
    }

    /// Closes the database: a PostgreSQL store's connections are closed and its pool's task ends
    /// (releasing the tenant does it too, without waiting); a SQLite store closes when released.
    /// Calls after it fail with `temporarily_unavailable` (PostgreSQL).
    public func close() async {
        if let store = store as? PostgresTenantStore {
            await store.close()
        }
    }

    /// The application's client ID.
    public var clientID: String { configuration.clientID ?? "" }

    /// The signing key's ID, as token headers and the JWKS carry it.
    public var signingKeyID: String { signer.keyID }

    /// 32 letters and digits, the form of an Auth0 client ID.
    private static func newClientID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String(SecureRandom.bytes(32).map { alphabet[Int($0) % alphabet.count] })
    }

    // MARK: Checks shared by the endpoints

    /// Refuses an unknown client ID (auth0-passkey-api.md §1.2: 401).
    func checkClient(_ clientID: String) throws(TenantError) {
        guard clientID == self.clientID else {
            throw TenantError(.invalidClient, status: 401, "Unknown client: \(clientID.prefix(64))")
        }
    }

    /// The connection a `realm` names; the tenant's one when absent.
    func checkRealm(_ realm: String?) throws(TenantError) -> String {
        guard let realm, realm != configuration.connection else { return configuration.connection }
        throw .invalidRequest("Connection not found: \(realm.prefix(64))")
    }

    /// Refuses when `keys` are locked out.
    func checkAttempts(_ keys: [AttemptLimiter.Key]) async throws(TenantError) {
        if let wait = try await limiter.retryAfter(keys) {
            throw TenantError(
                .tooManyAttempts, status: 429, "Too many failed attempts; try again later.", retryAfter: wait)
        }
    }

    /// Runs `body`; a refusal counts as a failed attempt of `keys`.
    func counting<T>(_ keys: [AttemptLimiter.Key], _ body: () async throws(TenantError) -> T) async throws(TenantError)
        -> T
    {
        do {
            return try await body()
        } catch {
            await recordFailure(error, keys)
            throw error
        }
    }

    /// Counts `error` as a failed attempt of `keys` when it is a refusal.
    ///
    /// The refusal is what the caller answers: when the store cannot count it (the database is
    /// down), that is logged, and the refusal still goes out.
    func recordFailure(_ error: TenantError, _ keys: [AttemptLimiter.Key]) async {
        guard error.countsAsFailedAttempt, !keys.isEmpty else { return }
        do {
            try await limiter.recordFailure(keys)
        } catch {
            logger.warning("A failed attempt was not counted: \(error.code.rawValue)")
        }
    }

    /// Opens a session for a ceremony whose options carry `challenge`, and returns its `auth_session`.
    func openSession(
        _ kind: PendingSession.Kind, clientID: String, connection: String, organization: String?, user: TenantUser?,
        challenge: [UInt8]
    ) async throws(TenantError) -> Secret {
        let secret = Secret.random()
        let session = PendingSession(
            kind: kind, clientID: clientID, connection: connection, organization: organization, challenge: challenge,
            user: user, expiresAt: clock.now().addingTimeInterval(configuration.sessionLifetime.seconds))
        try await store.insertSession(session, digest: secret.digest)
        return secret
    }

    /// Takes the session an `auth_session` names: once, and only before it expires.
    func takeSession(_ secret: Secret?) async throws(TenantError) -> PendingSession {
        guard let secret else { throw .invalidRequest("auth_session: missing") }
        guard let session = try await store.takeSession(digest: secret.digest, at: clock.now()) else {
            throw .invalidGrant("The auth_session is unknown, expired or already used.")
        }
        return session
    }

    /// The creation options of a signup or an enrollment, as Auth0 sends them (auth0-passkey-api.md
    /// §1.2): the RP ID as the RP's name, the user's highest-precedence identifier as its name
    /// (§18), a discoverable credential required, the session's lifetime as timeout, and no
    /// attestation, hints or extensions; `excluded`, when given, listed in `excludeCredentials` (§19.3).
    func registrationOptions(for user: TenantUser, excluding excluded: [TenantCredential]? = nil)
        -> RegistrationOptions
    {
        let name = configuration.identifiers.name(of: user.profile) ?? user.identifier
        return configuration.relyingParty.generateRegistrationOptions(
            rpName: configuration.relyingPartyID,
            user: PublicKeyCredentialUserEntityJSON(
                id: Base64URL(user.userHandle), name: name, displayName: user.profile.name ?? name),
            excludeCredentials: excluded.map { $0.map(\.descriptor) },
            residentKey: .required, extensions: nil, timeout: configuration.sessionLifetime)
    }

    /// A verification failure as the wire says it.
    func refused(_ error: WebAuthnError) -> TenantError {
        .invalidGrant("The passkey response does not verify (\(error.code)): \(error.reason)")
    }
}

extension Duration {
    /// The duration in seconds, fractions kept.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
