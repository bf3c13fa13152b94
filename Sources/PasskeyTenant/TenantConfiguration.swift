import FoundationEssentials
public import WebAuthn

/// What a local tenant is: its domain, its applications, its database connection and its APIs.
///
/// The defaults describe a tenant on `localhost`: the issuer is `https://localhost/`, the RP ID
/// `localhost`, the accepted origin `https://localhost` (the origin a native app's passkey carries,
/// `https://<rpId>`), the connection Auth0's default `Username-Password-Authentication`.
public struct TenantConfiguration: Sendable {
    /// The tenant's domain (`login.example.com`, or `host:port`): issuer `https://DOMAIN/`, My Account
    /// audience `https://DOMAIN/me/` (auth0-passkey-api.md §0.1, §5.1, §6.5).
    public var domain: String
    /// The WebAuthn RP ID; by default the domain without its port.
    public var relyingPartyID: String
    /// Origins accepted in client data besides `https://<rpId>`.
    public var additionalOrigins: [String]
    /// The client ID of the tenant's one (native, public) application; nil for the one stored in
    /// the database, generated when the database is created.
    public var clientID: String?
    /// The database connection's name, the `realm` of the Authentication API.
    public var connection: String
    /// The audience of the sample protected API (`GET /api/events`, scope `read:events`).
    public var apiAudience: String
    /// Whether the connection requires user verification (`required`) or only prefers it.
    public var requiresUserVerification: Bool
    /// The credential algorithms offered in `pubKeyCredParams` and accepted at registration,
    /// in Auth0's order (EdDSA, ES256, RS256).
    public var algorithms: [COSEAlgorithm]
    /// How long an `auth_session` (and its challenge) lives.
    public var sessionLifetime: Duration
    /// How long access tokens live (`expires_in`).
    public var accessTokenLifetime: Duration
    /// How long ID tokens live.
    public var idTokenLifetime: Duration
    /// How long a refresh token lives.
    public var refreshTokenLifetime: Duration
    /// The largest request body accepted.
    public var maxBodySize: Int
    /// When repeated failures lock a user or an address out.
    public var attemptLimits: AttemptLimits
    /// The reverse proxies whose `X-Forwarded-For` names the client address the attempt limit
    /// keys on (``TrustedProxy``); none by default, so the header is ignored.
    public var trustedProxies: [TrustedProxy]
    /// The RS256 signing key (RFC 7518 §3.3) for a database that has none yet, as a PKCS#1 or
    /// PKCS#8 PEM private key; nil to generate a 2048-bit key.
    ///
    /// The key is stored in the database, so a tenant reopened on it signs with the same key, and
    /// a database that already holds a key keeps it whatever this says. Giving one saves
    /// generating an RSA key, the slowest step of opening a new database (the tests give every
    /// tenant the same fixture key), and makes the `kid`, its RFC 7638 thumbprint, known in
    /// advance. A ``Secret``, so the key never prints.
    public var signingKeyPEM: Secret?
    /// The application's Allowed Callback URLs: where `GET /authorize` may send the browser back
    /// with a code (RFC 6749 §3.1.2, auth0-passkey-api.md §14.1).
    ///
    /// Matched exactly (scheme, host, path and query), except that a URL whose host is `127.0.0.1`,
    /// `[::1]` or `localhost` and that names no port matches that URL on any port: a native app's
    /// loopback redirect listens on a port picked at run time (RFC 8252 §7.3, §8.3). By default
    /// `http://127.0.0.1/callback` and `http://localhost/callback`.
    public var callbackURLs: [String]
    /// The application's Allowed Logout URLs: where `GET /v2/logout` and `/oidc/logout` may send
    /// the browser (auth0-passkey-api.md §14.4), matched as ``callbackURLs`` are. The first one is
    /// where a logout with a `client_id` and no `returnTo` goes.
    public var logoutURLs: [String]
    /// Sources added to the login page's CSP `connect-src` besides `'self'`: a page bridge on a
    /// loopback control server needs `http://127.0.0.1:*` (CSP Level 3 §6.1.2). Empty by default.
    public var pageConnectSources: [String]
    /// How long an authorization code may be redeemed: 60 seconds (RFC 6749 §4.1.2 recommends at
    /// most 10 minutes).
    public var authorizationCodeLifetime: Duration
    /// How long the login page's session cookie spares a user the ceremony: 7 days.
    public var loginSessionLifetime: Duration
    /// How long a login page's transaction (its `/authorize` parameters and pending challenge)
    /// lives: 10 minutes.
    public var loginTransactionLifetime: Duration
    /// How long a session transfer token (Native to Web SSO, ``SessionTransfer``) may be redeemed
    /// at `/authorize`: 60 seconds, as on Auth0.
    public var sessionTransferLifetime: Duration

    // MARK: - Applications

    /// The tenant's applications besides its default native one (``clientID``): regular web
    /// apps, single-page apps, more native or machine-to-machine apps, as Auth0 has them. None by
    /// default.
    public var applications: [TenantApplication]

    // MARK: - Management API

    /// The scopes the machine-to-machine client, and every application with the
    /// `client_credentials` grant, is granted on the Management API (auth0-passkey-api.md §15.1):
    /// by default all of ``PasskeyTenant/managementScopes``.
    public var managementScopes: [String]

    // MARK: - Organizations and identifiers

    /// The tenant's organizations (auth0-passkey-api.md §17); none by default.
    public var organizations: [TenantOrganization]
    /// Whether the application takes individuals, members of organizations, or both (its
    /// `organization_usage`); `deny` by default, as Auth0's.
    public var organizationUsage: OrganizationUsage
    /// The application's `organization_require_behavior`; `no_prompt` by default. **[local]** Every
    /// value acts as `no_prompt`: the application sends the organization.
    public var organizationRequireBehavior: OrganizationRequireBehavior
    /// The database connection's identifiers: which ones signup requires, offers or refuses, the
    /// username's length, their precedence (auth0-passkey-api.md §18). By default email required,
    /// phone number and username optional.
    public var identifiers: ConnectionAttributes

    // MARK: - Upstream connections

    /// Upstream OpenID Connect connections (``UpstreamConnection``), offered to every application:
    /// `/authorize?connection=NAME` and the login page's "Continue with NAME". None by default.
    public var connections: [UpstreamConnection]
    /// The PEM file of CA certificates the tenant trusts when it calls an upstream issuer (`tenant
    /// serve --cacert`); nil for `$CURL_CA_BUNDLE`, then `$SSL_CERT_FILE`, then the system's store.
    public var upstreamCABundlePath: String?

    // MARK: - DPoP

    /// The application's `require_proof_of_possession` (auth0-passkey-api.md §16.1): when true,
    /// `/oauth/token` issues no token without a valid DPoP proof (RFC 9449). False by default:
    /// a proof is then optional, and a request without one gets Bearer tokens.
    public var requireProofOfPossession: Bool
    /// Whether proofs must carry a server nonce (RFC 9449 §8, §9; auth0-passkey-api.md §16.3):
    /// a proof without a `DPoP-Nonce` the tenant issued in the last 5 minutes gets
    /// `use_dpop_nonce`, and every token and resource response carries a fresh `DPoP-Nonce`,
    /// good at every instance on the database. False by default.
    public var requiresDPoPNonce: Bool

    // MARK: - The local outbox

    /// The test route, the outbox file and the passwordless codes' lifetime (``OutboxConfiguration``).
    public var outbox = OutboxConfiguration()
    // MARK: - Passwords

    /// The database connection's passwords: policy, hash cost, bot detection, reset tickets.
    public var databaseConnection = DatabaseConnectionOptions()

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - domain: the tenant's domain; `localhost` by default.
    ///   - relyingPartyID: the RP ID; by default `domain` without a port.
    ///   - additionalOrigins: origins accepted besides `https://<rpId>`.
    ///   - clientID: the application's client ID; by default the database's.
    ///   - connection: the database connection's name.
    ///   - apiAudience: the sample API's audience; by default `https://DOMAIN/api/`.
    ///   - requiresUserVerification: whether UV is required; Auth0's default is `preferred`.
    public init(
        domain: String = "localhost", relyingPartyID: String? = nil, additionalOrigins: [String] = [],
        clientID: String? = nil, connection: String = "Username-Password-Authentication", apiAudience: String? = nil,
        requiresUserVerification: Bool = false
    ) {
        self.domain = domain
        self.relyingPartyID = relyingPartyID ?? Self.host(of: domain)
        self.additionalOrigins = additionalOrigins
        self.clientID = clientID
        self.connection = connection
        self.apiAudience = apiAudience ?? "https://\(domain)/api/"
        self.requiresUserVerification = requiresUserVerification
        self.algorithms = [.eddsa, .es256, .rs256]
        self.sessionLifetime = .seconds(300)
        self.accessTokenLifetime = .seconds(86_400)
        self.idTokenLifetime = .seconds(36_000)
        self.refreshTokenLifetime = .seconds(30 * 86_400)
        self.maxBodySize = Self.defaultMaxBodySize
        self.attemptLimits = AttemptLimits()
        self.trustedProxies = []
        self.signingKeyPEM = nil
        self.callbackURLs = ["http://127.0.0.1/callback", "http://localhost/callback"]
        self.logoutURLs = [
            "http://127.0.0.1/", "http://localhost/", "http://127.0.0.1/callback", "http://localhost/callback",
        ]
        self.pageConnectSources = []
        self.authorizationCodeLifetime = .seconds(60)
        self.loginSessionLifetime = .seconds(7 * 86_400)
        self.loginTransactionLifetime = .seconds(600)
        self.sessionTransferLifetime = .seconds(60)
        self.applications = []
        self.managementScopes = PasskeyTenant.managementScopes
        self.organizations = []
        self.organizationUsage = .deny
        self.organizationRequireBehavior = .noPrompt
        self.identifiers = ConnectionAttributes()
        self.connections = []
        self.upstreamCABundlePath = nil
        self.requireProofOfPossession = false
        self.requiresDPoPNonce = false
    }

    /// The organization `organization` names, by ID or by name.
    func organization(named organization: String) -> TenantOrganization? {
        organizations.first { $0.isNamed(organization) }
    }

    /// ``maxBodySize`` unless set: 64 KiB.
    static let defaultMaxBodySize = 64 * 1024

    /// `https://DOMAIN/`, the `iss` of every token.
    public var issuer: String { "https://\(domain)/" }

    /// `https://DOMAIN/me/`, the My Account API's audience.
    public var myAccountAudience: String { "https://\(domain)/me/" }

    /// `https://DOMAIN/api/v2/`, the Management API's audience (auth0-passkey-api.md §15.1 **[local]**).
    public var managementAudience: String { issuer + "api/v2/" }

    /// `https://DOMAIN/userinfo`, the audience of an access token asked for without one.
    var userInfoAudience: String { "https://\(domain)/userinfo" }

    /// The origins the relying party accepts: `https://<rpId>` first.
    public var origins: [String] {
        let native = "https://\(relyingPartyID)"
        return [native] + additionalOrigins.filter { $0 != native }
    }

    /// The relying-party policy every ceremony is verified against.
    var relyingParty: RelyingParty {
        RelyingParty(
            id: relyingPartyID, origins: origins, requireUserVerification: requiresUserVerification,
            allowedAlgorithms: algorithms)
    }

    /// `login.example.com` from `login.example.com:8443`; an IPv6 literal keeps its brackets.
    static func host(of domain: String) -> String {
        if domain.hasPrefix("["), let close = domain.firstIndex(of: "]") {
            return String(domain[...close])
        }
        return String(domain.split(separator: ":", maxSplits: 1).first ?? Substring(domain))
    }
}

/// How many failures lock a user or a client address out, and for how long
/// (Auth0's brute-force protection answers `too_many_attempts`, auth0-passkey-api.md §7.1).
public struct AttemptLimits: Sendable {
    /// Failures of one user allowed within ``window``.
    public var perUser: Int
    /// Failures from one address allowed within ``window``.
    public var perAddress: Int
    /// How far back failures count, and how long a lockout lasts.
    public var window: Duration

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - perUser: failures of one user allowed within `window`; 10 by default.
    ///   - perAddress: failures from one address allowed within `window`; 100 by default.
    ///   - window: how far back failures count; 5 minutes by default.
    public init(perUser: Int = 10, perAddress: Int = 100, window: Duration = .seconds(300)) {
        self.perUser = perUser
        self.perAddress = perAddress
        self.window = window
    }
}
