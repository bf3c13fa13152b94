import FoundationEssentials
public import Logging
import WebAuthn

/// A local Auth0-compatible tenant: the passkey endpoints of the Authentication API, the token
/// endpoint, My Account's passkey enrollment, JWKS and discovery, and Web Auth (`/authorize` with
/// a server-rendered passkey login page, the authorization code grant with PKCE, `/v2/logout`, `/oidc/logout`),
/// with every WebAuthn response verified by the core's ``RelyingParty`` (auth0-passkey-api.md;
/// its §12 is the checklist, §14 Web Auth's).
///
/// The tenant is the public face of five route collections over one ``TenantServices`` value:
/// ``AuthenticationAPI``, ``WebAuthAPI``, ``MyAccountAPI``, ``ManagementAPI`` and
/// ``ResourceServer``. Their operations are plain async functions, so tests and benchmarks can
/// drive a ceremony without HTTP (the forwarders in `PasskeyTenant+Operations.swift`); ``router(servesTLS:)``
/// puts them behind Hummingbird, and ``run(host:port:tls:onStart:)`` serves them until SIGINT or
/// SIGTERM.
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
    /// What the APIs share: store, signer, clock, configuration, limiter, nonces, logger.
    let services: TenantServices
    /// `/passkey/*`, `/oauth/*`, `/userinfo`, JWKS and discovery.
    let authentication: AuthenticationAPI
    /// `/authorize`, the login page's API, `/v2/logout`, `/oidc/logout`.
    let webAuth: WebAuthAPI
    /// `/me/v1/*`.
    let myAccount: MyAccountAPI
    /// `/api/v2/*`.
    let management: ManagementAPI
    /// `/api/events`, the sample protected API.
    let resourceServer: ResourceServer
    /// `/passwordless/start`, `/passwordless/verify_redirect`.
    let passwordless: PasswordlessAPI
    /// `/test/outbox`, behind ``OutboxConfiguration/servesTestRoute``.
    let outbox: OutboxAPI
    /// `/dbconnections/*` and the password-reset page.
    let databaseConnections: DatabaseConnectionsAPI

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
    /// - Throws: `invalid_configuration` for a malformed PostgreSQL URL or an application of
    ///   ``TenantConfiguration/applications`` that contradicts itself (a bad origin or URL, a
    ///   secret on a public client, …; ``TenantApplication``) or whose name is given twice;
    ///   `temporarily_unavailable` when the PostgreSQL server cannot be reached; `server_error` when
    ///   the database cannot be opened or migrated.
    public init(
        configuration: TenantConfiguration = TenantConfiguration(), database: String = ":memory:",
        clock: TenantClock = .system,
        logger: Logger = Logger(label: "passkey-tenant", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(TenantError) {
        let services = try await TenantServices.open(
            configuration: configuration, database: database, clock: clock, logger: logger)
        self.services = services
        authentication = AuthenticationAPI(services: services)
        webAuth = WebAuthAPI(services: services)
        myAccount = MyAccountAPI(services: services)
        management = ManagementAPI(services: services)
        resourceServer = ResourceServer(services: services)
        passwordless = PasswordlessAPI(services: services)
        outbox = OutboxAPI(services: services)
        databaseConnections = DatabaseConnectionsAPI(services: services)
    }

    /// Closes the database: a PostgreSQL store's connections are closed and its pool's task ends
    /// (releasing the tenant does it too, without waiting); a SQLite store closes when released.
    /// Calls after it fail with `temporarily_unavailable` (PostgreSQL).
    public func close() async {
        await services.store.close()
    }

    /// The configuration, with the client ID resolved.
    public var configuration: TenantConfiguration { services.configuration }

    /// The application's client ID.
    public var clientID: String { services.clientID }

    /// The machine-to-machine client's ID: the one client that may use the client credentials
    /// grant, for Management API tokens (auth0-passkey-api.md §15.1).
    public var managementClientID: String { services.managementClientID }

    /// The machine-to-machine client's secret: 64 base64url characters, generated with the
    /// database and kept in it, so a restarted tenant keeps its client. Never printed.
    public var managementClientSecret: Secret { services.managementClientSecret }

    /// The configured applications (``TenantConfiguration/applications``), in their order, with
    /// their client IDs and the secrets of the confidential ones resolved: given, or generated
    /// with the database and kept in it.
    public var applications: [RegisteredApplication] { services.applications }

    /// The signing key's ID, as token headers and the JWKS carry it.
    public var signingKeyID: String { services.signer.keyID }

    /// The routes of every API, in the order the tenant serves them.
    var routes: [any TenantRoutes] {
        [
            authentication, resourceServer, myAccount, management, InvitationsAPI(services: services), webAuth,
            databaseConnections, passwordless, outbox,
        ]
    }

    /// The Management API scopes the tenant implements (auth0-passkey-api.md §15.2, §15.3;
    /// `update:users` for `PATCH users/{id}` and account linking), the
    /// machine-to-machine client's grant unless ``TenantConfiguration/managementScopes`` says
    /// otherwise.
    public static let managementScopes =
        [
            "create:users", "read:users", "delete:users", "create:authentication_methods",
            "read:authentication_methods", "delete:authentication_methods", "update:users",
        ] + InvitationsAPI.scopes

    /// The ID of the pending method an enrollment challenge creates, as Auth0 names it.
    public static let pendingPasskeyMethodID = "passkey|new"

    /// How long a proof's `jti` is remembered: 5 minutes, longer than `iat`'s ±60 seconds allow
    /// a proof to live.
    static let proofMemory: Double = 300
}
