import ArgumentParser
import Foundation
import Logging
import PasskeyTenant

extension Passkey {
    /// `passkey tenant`: the local Auth0-compatible tenant.
    struct Tenant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a local Auth0-compatible tenant.",
            subcommands: [Serve.self]
        )
    }
}

extension Passkey.Tenant {
    /// `passkey tenant serve`: serve the tenant until SIGINT or SIGTERM.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve a local Auth0-compatible tenant until SIGINT or SIGTERM.",
            discussion: """
                Answers Auth0's passkey signup and login, the token endpoint, My Account passkey enrollment,
                userinfo, JWKS and discovery, verifying every WebAuthn response; and Web Auth: GET /authorize
                serves a passkey login page (open it as http://localhost:PORT/authorize?... for RP ID localhost),
                the authorization code grant with PKCE in the query, fragment, form_post and web_message response
                modes, GET /v2/logout and /oidc/logout, and CORS for single-page apps' web origins; and the
                Management API under
                /api/v2 (users and their passkeys) for a machine-to-machine client with client_credentials.
                Prints one line with the base URL, client ID, connection, RP ID and machine-to-machine client
                ID once it listens (JSON with --json, which adds the client's secret and the management
                audience). Users, passkeys, the signing key and the machine-to-machine client live in a
                SQLite file, so a restart keeps them.

                Organizations and the connection's identifiers come from --config FILE (JSON, Auth0's key
                names), overridden by --organization, --member, --organization-usage and --identifier.
                More applications (regular web apps with a secret, single-page apps, native or
                machine-to-machine apps) come from the file's "clients" list or from --app, in Auth0's key
                names; --json lists each with its client ID, and its secret if it has one. Upstream OpenID
                Connect connections come from the file's "connections" list or from --connection: GET
                /authorize?connection=NAME logs in at the connection's issuer, which answers at /login/callback.

                Passwordless: POST /passwordless/start sends a 6-digit code (email or SMS) or a magic link (email) \
                that the http://auth0.com/oauth/grant-type/passwordless/otp grant or GET \
                /passwordless/verify_redirect redeems. Nothing is mailed: messages go to the local outbox, which \
                --test-outbox serves and --outbox-file appends to.
                """
        )

        @Option(help: "The address to listen on.")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on; 0 picks a free one.")
        var port = 0

        @Option(help: "The tenant's domain: the issuer is https://DOMAIN/.")
        var domain = "localhost"

        @Option(name: .customLong("rp-id"), help: "The WebAuthn RP ID; by default the domain without its port.")
        var rpID: String?

        @Option(help: "An origin to accept besides https://<rp-id> (repeatable).")
        var origin: [String] = []

        @Option(
            help: """
                The database: postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME (or postgresql://; a Unix socket as \
                postgres://USER@/DBNAME?host=/socket/dir), which several instances may share; else a SQLite file, \
                or :memory:. Default: $PASSKEY_TENANT_DB, else tenant.sqlite in the passkey store directory.
                """)
        var db: String?

        @Option(name: .customLong("client-id"), help: "The application's client ID; by default the database's.")
        var clientID: String?

        @Option(help: "The audience of the sample API (GET /api/events); by default https://DOMAIN/api/.")
        var audience: String?

        @Flag(name: .customLong("require-uv"), help: "Require user verification (the connection's UV policy).")
        var requireUV = false

        @Option(
            name: .customLong("callback"),
            help: """
                An Allowed Callback URL of the application (repeatable; replaces the defaults \
                http://127.0.0.1/callback and http://localhost/callback). A loopback URL without a port \
                matches any port (RFC 8252).
                """)
        var callbacks: [String] = []

        @Option(
            name: .customLong("logout-url"),
            help: "An Allowed Logout URL of the application (repeatable; replaces the defaults).")
        var logoutURLs: [String] = []

        @Option(
            name: .customLong("page-connect-src"),
            help: """
                A CSP connect-src source the login page may reach besides itself (repeatable). Default: \
                http://127.0.0.1:*, so that a page bridge on this machine (passkey browser, passkey login --web \
                --browser) answers the page; give "'self'" to allow the page's own origin only.
                """)
        var pageConnectSources: [String] = []

        /// What a page bridge on this machine needs: its control server listens on 127.0.0.1.
        static let loopbackConnectSource = "http://127.0.0.1:*"

        @Option(name: .customLong("tls-cert"), help: "A PEM certificate chain: serve HTTPS.")
        var tlsCert: String?

        @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-cert.")
        var tlsKey: String?

        @Option(
            name: .customLong("m2m-scope"),
            help: """
                A Management API scope of the machine-to-machine client (repeatable; replaces the default ones: \
                create:users read:users delete:users create:authentication_methods read:authentication_methods \
                delete:authentication_methods create:organization_invitations read:organization_invitations \
                delete:organization_invitations).
                """)
        var m2mScopes: [String] = []

        @Option(
            name: .customLong("app"),
            help: ArgumentHelp(
                """
                An application besides the default native one (repeatable), as comma-separated KEY=VALUE \
                pairs in Auth0's key names: name, app_type (native, spa, regular_web, non_interactive), \
                client_id, client_secret, token_endpoint_auth_method (none, client_secret_post, \
                client_secret_basic), and callbacks, allowed_logout_urls, web_origins, allowed_origins, \
                grant_types (repeat the key for each element), and invoke_url (the embedded mode: /authorize \
                sends the browser there; https, or http on a loopback host). Replaces the --config \
                application of that name.
                """,
                valueName: "KEY=VALUE,..."))
        var apps: [String] = []

        @Option(
            name: .customLong("connection"),
            help: ArgumentHelp(
                """
                An upstream OpenID Connect connection (repeatable): NAME=oidc,issuer=URL,client_id=ID,\
                client_secret_env=VAR[,scope=S][,discovery_url=URL][,jwks_uri=URL]. /authorize?connection=NAME \
                logs in there, and the login page offers it; its users are oidc|NAME|SUB. Replaces the --config \
                connection of that name. Its HTTPS is checked against --cacert, $CURL_CA_BUNDLE or $SSL_CERT_FILE.
                """,
                valueName: "NAME=oidc,KEY=VALUE,..."))
        var connections: [String] = []

        @OptionGroup var trust: CABundleOptions

        @Option(
            name: .customLong("trusted-proxy"),
            help: ArgumentHelp(
                """
                A reverse proxy or load balancer in front of the tenant, an address or CIDR block (repeatable; \
                replaces the --config trusted_proxies): from it, the per-address attempt limit keys on the \
                rightmost X-Forwarded-For address that is not a trusted proxy. From any other peer the header \
                is ignored.
                """,
                valueName: "address[/bits]"))
        var trustedProxies: [String] = []

        @OptionGroup var format: OutputOptions

        @Flag(name: .shortAndLong, help: "Log each request (method, path, status) on standard error.")
        var verbose = false

        // MARK: - Organizations and identifiers

        @OptionGroup var organizationOptions: TenantOrganizationOptions

        @OptionGroup var outboxOptions: TenantOutboxOptions
        // MARK: - Passwords

        @OptionGroup var passwordOptions: TenantPasswordOptions

        // MARK: - DPoP

        @Flag(
            name: .customLong("require-dpop"),
            help: "Issue no token without a DPoP proof (RFC 9449; the application's require_proof_of_possession).")
        var requireDPoP = false

        @Flag(
            name: .customLong("dpop-nonce"),
            help:
                "Require a server nonce in DPoP proofs: use_dpop_nonce and a fresh DPoP-Nonce header (RFC 9449 §8, §9)."
        )
        var dpopNonce = false

        // MARK: - Native to Web SSO

        @Option(
            name: .customLong("session-transfer-lifetime"),
            help: "Seconds a session transfer token (Native to Web SSO) may be redeemed; 60 by default.")
        var sessionTransferLifetime: Int?

        func validate() throws {
            if let sessionTransferLifetime, sessionTransferLifetime < 1 {
                throw ValidationError("--session-transfer-lifetime must be 1 second or more.")
            }
            guard (tlsCert == nil) == (tlsKey == nil) else {
                throw ValidationError("--tls-cert and --tls-key go together.")
            }
            guard (0...65535).contains(port) else {
                throw ValidationError("--port must be between 0 and 65535.")
            }
            for url in callbacks + logoutURLs where !url.contains("://") || url.contains("#") {
                throw ValidationError("\(url) is not an absolute URL without a fragment.")
            }
            for app in apps {
                do {
                    _ = try TenantApplication(option: app)
                } catch {
                    throw ValidationError(error.detail)
                }
            }
            for connection in connections {
                do {
                    _ = try UpstreamConnection(option: connection)
                } catch {
                    throw ValidationError(error.detail)
                }
            }
            for proxy in trustedProxies {
                do {
                    _ = try TrustedProxy(proxy)
                } catch {
                    throw ValidationError("--trusted-proxy: \(error.detail)")
                }
            }
            for scope in m2mScopes where !PasskeyTenant.managementScopes.contains(scope) {
                let known = PasskeyTenant.managementScopes.joined(separator: " ")
                throw ValidationError("--m2m-scope \(scope) is not one of \(known).")
            }
        }

        func run() async throws {
            var configuration = TenantConfiguration(
                domain: domain, relyingPartyID: rpID, additionalOrigins: origin, clientID: clientID,
                apiAudience: audience, requiresUserVerification: requireUV)
            if !callbacks.isEmpty { configuration.callbackURLs = callbacks }
            if !logoutURLs.isEmpty { configuration.logoutURLs = logoutURLs }
            if !m2mScopes.isEmpty { configuration.managementScopes = m2mScopes }
            configuration.requireProofOfPossession = requireDPoP
            configuration.requiresDPoPNonce = dpopNonce
            configuration.pageConnectSources =
                pageConnectSources.isEmpty ? [Self.loopbackConnectSource] : pageConnectSources.filter { $0 != "'self'" }
            try organizationOptions.apply(to: &configuration)
            outboxOptions.apply(to: &configuration)
            passwordOptions.apply(to: &configuration)
            if let sessionTransferLifetime { configuration.sessionTransferLifetime = .seconds(sessionTransferLifetime) }
            if !trustedProxies.isEmpty { configuration.trustedProxies = try trustedProxies.map(TrustedProxy.init) }
            for app in apps {
                let application = try TenantApplication(option: app)
                configuration.applications.removeAll { $0.name == application.name }
                configuration.applications.append(application)
            }
            for option in connections {
                let connection = try UpstreamConnection(option: option)
                configuration.connections.removeAll { $0.name == connection.name }
                configuration.connections.append(connection)
            }
            configuration.upstreamCABundlePath = trust.caBundlePath
            var logger = Logger(label: "passkey-tenant", factory: { StreamLogHandler.standardError(label: $0) })
            logger.logLevel = verbose ? .info : .warning
            let tenant: PasskeyTenant
            do {
                tenant = try await PasskeyTenant(
                    configuration: configuration, database: try databasePath(), logger: logger)
            } catch let error as TenantError {
                printError("tenant: \(error.detail)")
                throw ExitCode(1)
            }
            let tls = tlsCert.flatMap { cert in tlsKey.map { TenantTLS(certificateChainPath: cert, privateKeyPath: $0) }
            }
            let json = format.json
            try await tenant.run(host: host, port: port, tls: tls) { endpoint in
                let line = StartLine(tenant: tenant, endpoint: endpoint)
                FileHandle.standardOutput.write(Data(((json ? line.json : line.text) + "\n").utf8))
            }
        }

        /// `--db`, else `$PASSKEY_TENANT_DB`, else `tenant.sqlite` in the store directory (`$PASSKEY_STORE`,
        /// `$XDG_DATA_HOME/passkey`, `~/.local/share/passkey`), created 0700 if missing.
        private func databasePath() throws -> String {
            if let db { return db }
            let environment = ProcessInfo.processInfo.environment
            if let db = environment["PASSKEY_TENANT_DB"], !db.isEmpty { return db }
            guard let directory = StoreOptions.defaultDirectory(environment: environment) else {
                throw ValidationError("no store directory: set --db, PASSKEY_STORE or HOME")
            }
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return directory + "/tenant.sqlite"
        }
    }

    /// What `tenant serve` prints once it listens. The JSON line carries the machine-to-machine
    /// client's secret and the configured applications' secrets, for a test harness that reads the
    /// process's standard output (the CLI tests decode it back); the text line, meant for a
    /// terminal, never does.
    struct StartLine: Codable {
        let url: String
        let domain: String
        let issuer: String
        let clientID: String
        let connection: String
        let rpID: String
        let audience: String
        let m2mClientID: String
        let m2mClientSecret: String
        let managementAudience: String
        let organizations: [Organization]
        let applications: [Application]

        /// An organization as the start line names it.
        struct Organization: Codable {
            let id: String
            let name: String
        }

        /// A configured application as the start line names it, in Auth0's key names; the secret
        /// only for a confidential client.
        struct Application: Codable {
            let name: String
            let appType: String
            let clientID: String
            let clientSecret: String?
            let tokenEndpointAuthMethod: String

            enum CodingKeys: String, CodingKey {
                case name
                case appType = "app_type"
                case clientID = "client_id"
                case clientSecret = "client_secret"
                case tokenEndpointAuthMethod = "token_endpoint_auth_method"
            }
        }

        init(tenant: PasskeyTenant, endpoint: TenantEndpoint) {
            url = endpoint.baseURL
            domain = tenant.configuration.domain
            issuer = tenant.configuration.issuer
            clientID = tenant.clientID
            connection = tenant.configuration.connection
            rpID = tenant.configuration.relyingPartyID
            audience = tenant.configuration.apiAudience
            m2mClientID = tenant.managementClientID
            m2mClientSecret = tenant.managementClientSecret.text
            managementAudience = tenant.configuration.managementAudience
            organizations = tenant.configuration.organizations.map { Organization(id: $0.id, name: $0.name) }
            applications = tenant.applications.map {
                Application(
                    name: $0.name, appType: $0.appType.rawValue, clientID: $0.clientID,
                    clientSecret: $0.clientSecret?.text,
                    tokenEndpointAuthMethod: $0.tokenEndpointAuthMethod.rawValue)
            }
        }

        enum CodingKeys: String, CodingKey {
            case url, domain, issuer, connection, audience, organizations, applications
            case clientID = "client_id"
            case rpID = "rp_id"
            case m2mClientID = "m2m_client_id"
            case m2mClientSecret = "m2m_client_secret"
            case managementAudience = "management_audience"
        }

        var text: String {
            "tenant listening on \(url) domain=\(domain) client_id=\(clientID) connection=\(connection) rp_id=\(rpID)"
                + " m2m_client_id=\(m2mClientID)"
        }

        var json: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // Strings and lists of strings only: always encodes.
            return String(decoding: try! encoder.encode(self), as: UTF8.self)
        }
    }
}
