import Auth0Passkeys
import Logging
import PasskeyKit

/// The resolved settings of the tenant an Auth0 command talks to.
struct TenantSettings: Sendable {
    /// The application's client ID.
    let clientID: String
    /// `--base-url` when given, else `https://DOMAIN/`: where the requests go.
    let baseURL: String
    /// The tenant's domain when one was given; the My Account audience is `https://DOMAIN/me/`.
    let domain: String?
    let connection: String?
    let audience: String?
    let scope: String
    let organization: String?
    /// The directory of this tenant's and application's session: one per client ID and base URL,
    /// so that two tenants never share tokens.
    let sessionDirectory: String
    /// What the session's files are sealed under.
    let sealing: CredentialsSealing
    /// How requests go: libcurl, trusting `--cacert` (else `$CURL_CA_BUNDLE`, else `$SSL_CERT_FILE`).
    var transport: any HTTPTransport = CurlTransport()

    /// - Throws: ``FlowFailure`` when the client ID, or both the domain and the base URL, are missing.
    init(_ values: [TenantSetting: String], sessionsDirectory: String, sealing: CredentialsSealing)
        throws(FlowFailure)
    {
        guard let clientID = values[.clientID] else {
            throw FlowFailure(
                step: "config", code: "no_client_id", description: "no client ID is configured",
                hint: "pass --client-id, set AUTH0_CLIENT_ID, or run `passkey config set client-id ID`")
        }
        let domain = values[.domain]
        guard let baseURL = values[.baseURL] ?? domain.map({ $0.hasPrefix("https") ? $0 : "https://" + $0 }) else {
            throw FlowFailure(
                step: "config", code: "no_tenant", description: "no tenant is configured",
                hint: "pass --domain (or --base-url), set AUTH0_DOMAIN, or run `passkey config set domain DOMAIN`")
        }
        self.clientID = clientID
        self.baseURL = baseURL
        self.domain = domain
        connection = values[.connection]
        audience = values[.audience]
        scope = values[.scope] ?? Authentication.defaultScope
        organization = values[.organization]
        sessionDirectory = sessionsDirectory + "/" + Self.directoryName(clientID: clientID, baseURL: baseURL)
        self.sealing = sealing
    }

    /// The tenant these settings name, its requests going through `transport` (by default ``transport``).
    ///
    /// - Throws: ``FlowFailure`` when the base URL is not one a client may use.
    func tenant(transport: (any HTTPTransport)? = nil, logger: Logger?) throws(FlowFailure) -> Tenant {
        var tenant: Tenant
        do {
            tenant = try Tenant(
                clientID: clientID, baseURL: baseURL, domain: domain, transport: transport ?? self.transport,
                logger: logger)
        } catch {
            throw FlowFailure(step: "config", error)
        }
        tenant.connection = connection
        tenant.audience = audience
        tenant.scope = scope
        tenant.organization = organization
        return tenant
    }

    /// The user of this tenant's session, kept in files under ``sessionDirectory`` sealed under
    /// ``sealing``; with no device of its own (the commands that make or use a passkey name theirs).
    ///
    /// With `usesDPoP` (`login --dpop`, `signup --dpop`) a new login asks for DPoP-bound tokens;
    /// the key is sealed with the session, so every later command uses it without being told.
    func user(transport: (any HTTPTransport)? = nil, logger: Logger?, usesDPoP: Bool = false)
        throws(FlowFailure) -> VirtualUser
    {
        var tenant = try tenant(transport: transport, logger: logger)
        tenant.usesDPoP = usesDPoP
        return VirtualUser(
            tenant: tenant, device: nil, session: FileCredentialsStorage(directory: sessionDirectory, sealing: sealing))
    }

    /// `<client ID>@<host[:port][/path]>`, with every character outside `[A-Za-z0-9._@-]` as `_`.
    static func directoryName(clientID: String, baseURL: String) -> String {
        let host = baseURL.split(separator: "://", maxSplits: 1).last.map(String.init) ?? baseURL
        let trimmed = host.hasSuffix("/") ? String(host.dropLast()) : host
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@-")
        return String((clientID + "@" + trimmed).map { allowed.contains($0) ? $0 : "_" })
    }
}
