import FoundationEssentials
import Logging
import WebAuthn

/// What every API of the tenant shares: the configuration, the store, the token signer, the clock,
/// the attempt limiter, the DPoP nonces, the logger and the machine-to-machine client; and, in its
/// extensions, the rules more than one API applies (client and realm checks, sessions, the
/// attempt lockout, organizations, passkey verification, token issuance, bearer and DPoP checks).
///
/// Each API is a route collection over this one value (``TenantRoutes``): ``AuthenticationAPI``,
/// ``WebAuthAPI``, ``MyAccountAPI``, ``ManagementAPI`` and ``ResourceServer``. ``PasskeyTenant``
/// opens it and is the public face of all five.
struct TenantServices: Sendable {
    /// The configuration, with the client ID resolved.
    let configuration: TenantConfiguration
    let store: any TenantStore
    let signer: TokenSigner
    let limiter: AttemptLimiter
    let clock: TenantClock
    let logger: Logger
    /// The machine-to-machine client's ID: the one client that may use the client credentials
    /// grant, for Management API tokens (auth0-passkey-api.md §15.1).
    let managementClientID: String
    /// The machine-to-machine client's secret, generated with the database and kept in it.
    let managementClientSecret: Secret
    /// The `DPoP-Nonce` values handed out and accepted (RFC 9449 §8), under a key every
    /// instance on the database shares.
    let dpopNonces: DPoPNonces
    /// The configured applications (``TenantConfiguration/applications``), their IDs and secrets
    /// resolved; ``application(_:)`` adds the two built-in ones.
    let applications: [RegisteredApplication]
    /// The upstream connections by name, each with its issuer's kept metadata.
    let upstreams: [String: UpstreamIssuer]
    /// The outbox file every sent message is appended to, when configured (``OutboxConfiguration/file``).
    let outboxFile: OutboxFile?

    /// Opens the services on a database, creating its schema, signing key, client ID and
    /// machine-to-machine client on first use (``PasskeyTenant/init(configuration:database:clock:logger:)``
    /// documents the arguments and errors).
    static func open(
        configuration: TenantConfiguration, database: String, clock: TenantClock, logger: Logger
    ) async throws(TenantError) -> TenantServices {
        // An application built in Swift is refused as the file's and `--app`'s are, before any store opens.
        try TenantApplication.validate(configuration.applications, at: "applications")
        let upstreams = try UpstreamIssuer.open(
            configuration.connections, databaseConnection: configuration.connection,
            caBundlePath: configuration.upstreamCABundlePath, now: clock.now)
        var outboxFile: OutboxFile?
        if let path = configuration.outbox.file { outboxFile = try await OutboxFile.open(path) }
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
        var applications: [RegisteredApplication] = []
        for application in configuration.applications {
            applications.append(
                try await RegisteredApplication.resolve(application, in: store, newClientID: newClientID))
        }
        return TenantServices(
            configuration: configuration, store: store,
            signer: try await TokenSigner.load(from: store, given: configuration.signingKeyPEM),
            limiter: AttemptLimiter(limits: configuration.attemptLimits, clock: clock, store: store), clock: clock,
            logger: logger, managementClientID: try await store.setting("m2m_client_id") { Self.newClientID() },
            managementClientSecret: Secret(
                try await store.setting("m2m_client_secret") { Secret.random(byteCount: 48).text }),
            dpopNonces: DPoPNonces(key: try await DPoPNonces.key(in: store), clock: clock), applications: applications,
            upstreams: upstreams, outboxFile: outboxFile)
    }

    /// The application's client ID.
    var clientID: String { configuration.clientID ?? "" }

    /// 32 letters and digits, the form of an Auth0 client ID.
    private static func newClientID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String(SecureRandom.bytes(32).map { alphabet[Int($0) % alphabet.count] })
    }
}

extension Duration {
    /// The duration in seconds, fractions kept.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
