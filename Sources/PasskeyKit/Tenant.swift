public import Auth0Passkeys
public import Logging

/// An Auth0 tenant as virtual users reach it: the application they sign in to, where its
/// endpoints are, and what every flow sends (connection, audience, scope, organization).
///
/// Works the same against an Auth0 tenant with passkeys enabled and against the local
/// `PasskeyTenant`:
///
/// ```swift
/// let tenant = Tenant(clientID: "abc123", domain: "login.example.com")
/// let local = try Tenant(clientID: tenant.clientID, baseURL: "http://127.0.0.1:41234")
/// ```
public struct Tenant: Sendable {
    /// The Authentication API client every user of this tenant shares.
    public let authentication: Authentication
    /// The tenant's domain, when given: the My Account audience is `https://DOMAIN/me/`. Without
    /// one, the domain is the host of the ID token's issuer (`iss` is `https://DOMAIN/`).
    public var domain: String?
    /// The database connection (`realm`); the tenant's default when `nil`.
    public var connection: String?
    /// The API the session's access token is for, if any.
    public var audience: String?
    /// The scopes a login asks for; with `offline_access`, for a refresh token.
    public var scope: String
    /// The organization, if any.
    public var organization: String?
    /// Whether logins and signups ask for DPoP-bound tokens (RFC 9449; auth0-passkey-api.md
    /// §16): each ``VirtualUser`` then makes a P-256 key of its own at its first token request,
    /// every token request carries a proof, the tenant answers `token_type: DPoP`, and the key is
    /// kept with the user's session. Off by default. A session that is DPoP-bound keeps using its
    /// key whatever this says: only new logins follow it.
    public var usesDPoP = false
    /// How the application authenticates at the token and revocation endpoints (RFC 6749 §2.3.1,
    /// RFC 7009 §2.1): `ClientAuthentication.none` for a native or single-page app, the default;
    /// its secret for a regular web app, which a web login's code exchange, each renewal and the
    /// revocation at logout then send.
    public var clientAuthentication = ClientAuthentication.none
    /// What checks the ID token of every login, signup and renewal before its session is kept
    /// (auth0-passkey-api.md §14.5): the tenant's JWKS, its issuer (`https://DOMAIN/` with a
    /// domain, else the one its discovery document names), the client ID, and ``organization``'s
    /// `org_id` (or `org_name`) when there is one (§17). One per tenant, so its users share the
    /// fetched keys.
    public var idTokenValidator: IDTokenValidator { validator.checking(organization: organization) }
    /// The validator, without an organization.
    private let validator: IDTokenValidator
    /// The transport every request goes through.
    public let transport: any HTTPTransport
    /// Where requests are logged; nothing by default.
    public let logger: Logger?

    /// Connects to a tenant by domain, as Auth0.swift does (`https://DOMAIN/`).
    ///
    /// - Parameters:
    ///   - clientID: the application's client ID.
    ///   - domain: the tenant's (custom) domain.
    ///   - transport: the HTTP transport; libcurl by default.
    ///   - logger: where to log requests (redacted); nothing by default.
    public init(
        clientID: String, domain: String, transport: any HTTPTransport = CurlTransport(), logger: Logger? = nil
    ) {
        self.init(
            authentication: Authentication(clientId: clientID, domain: domain, transport: transport, logger: logger),
            domain: domain, transport: transport, logger: logger)
    }

    /// Connects to a tenant at an explicit base URL, such as a local tenant's.
    ///
    /// - Parameters:
    ///   - clientID: the application's client ID.
    ///   - baseURL: `https://…`, or `http://…` to a loopback host only.
    ///   - domain: the tenant's domain, when it differs from what the ID token's issuer says.
    ///   - transport: the HTTP transport; libcurl by default.
    ///   - logger: where to log requests (redacted); nothing by default.
    /// - Throws: `AuthenticationError` with `invalidConfiguration` for any other URL.
    public init(
        clientID: String, baseURL: String, domain: String? = nil, transport: any HTTPTransport = CurlTransport(),
        logger: Logger? = nil
    ) throws(AuthenticationError) {
        self.init(
            authentication: try Authentication(
                clientId: clientID, baseURL: baseURL, transport: transport, logger: logger),
            domain: domain, transport: transport, logger: logger)
    }

    private init(authentication: Authentication, domain: String?, transport: any HTTPTransport, logger: Logger?) {
        self.authentication = authentication
        self.domain = domain.map(Self.host)
        self.validator = IDTokenValidator(
            authentication: authentication, issuer: self.domain.map { "https://\($0)/" })
        self.scope = Authentication.defaultScope
        self.transport = transport
        self.logger = logger
    }

    /// The application's client ID.
    public var clientID: String { authentication.clientId }
    /// The base URL requests go to, ending in `/`.
    public var baseURL: String { authentication.url }

    /// `login.example.com` of `https://login.example.com/`, keeping a port.
    private static func host(_ domain: String) -> String {
        let afterScheme = domain.split(separator: "://", maxSplits: 1).last.map(String.init) ?? domain
        return String(afterScheme.prefix { $0 != "/" })
    }
}
