import Auth0Passkeys
import Foundation
import PasskeyKit
import PasskeyTenant

/// Federated logins per second beside native logins, over HTTP on loopback, measured alternately
/// in one run (issue 40): tenant A delegating to tenant B, the passkey provider, in B's embedded
/// mode, against the native passkey login at A.
///
/// B is served over TLS (``LoopbackTLS``) at `https://localhost:PORT`, its issuer; its client
/// for A has an invoke URL. A, on plain HTTP, has the upstream OpenID Connect connection
/// `provider` to B and the regular web application of ``WebLoginBench``. A federated login is
/// what the app does through the client library's public API: ``WebAuth`` with the connection
/// and `client_secret_basic`, the user agent ``LoginPageUserAgent`` following A's redirect to B,
/// B's to the invoke URL, answering the authenticate URL with the device's passkey
/// (`GET`/`POST /embedded/authenticate`), then B's `/embedded/continue`, A's `/login/callback`
/// (A's code exchange at B with its secret and PKCE, B's ID token validated against B's JWKS, the
/// user `oidc|provider|SUB` found), and the app's code exchange at A with its ID token validated:
/// nine requests, and B's tokens and A's signed. The native login (``VirtualUser/logIn(choosing:on:)``:
/// challenge, assertion, webauthn grant, ID token validated) is two requests and A's tokens.
///
/// `users` users sign up at B and at A first (in process, each tenant with a device of its own,
/// as both have the RP ID `localhost`); client k of K logs in the users whose index is k modulo
/// K in turn, in either figure.
struct FederatedLoginBench {
    /// A's connection to B.
    static let connection = "provider"
    /// The app's invoke URL, which B's client for A registers (never fetched: the user agent
    /// answers it).
    static let invokeURL = "http://127.0.0.1/invoke"

    let users: Int
    let clients: [Int]
    let seconds: Double
    let rounds: Int

    /// Federated and native logins per second with K clients, alternating, and their ratio.
    typealias Figure = LoginsBesideNative

    /// Opens B and A (A on `configuration`, with ``WebLoginBench``'s application added), signs the
    /// users up at both, serves them and measures both logins per K, `rounds` times alternately;
    /// the medians are kept.
    func figures(configuration: TenantConfiguration) async throws -> [Figure] {
        let identity = try LoopbackTLS()
        defer { identity.remove() }
        let port = try LoopbackTLS.freePort()
        let secret = UUID().uuidString + UUID().uuidString
        var providerConfiguration = TenantConfiguration(domain: "localhost:\(port)")
        providerConfiguration.applications = [
            try TenantApplication(
                option: "name=tenant-a,app_type=regular_web,client_id=tenant-a,client_secret=\(secret),"
                    + "callbacks=http://localhost/login/callback,callbacks=http://127.0.0.1/login/callback,"
                    + "invoke_url=\(Self.invokeURL)")
        ]
        let provider = try await PasskeyTenant(configuration: providerConfiguration)
        var tenantConfiguration = configuration
        let webSecret = WebLoginBench.addApplication(to: &tenantConfiguration)
        tenantConfiguration.connections = [
            UpstreamConnection(
                name: Self.connection, issuer: provider.configuration.issuer, clientID: "tenant-a",
                clientSecret: Secret(secret))
        ]
        tenantConfiguration.upstreamCABundlePath = identity.caBundlePath
        let tenant = try await PasskeyTenant(configuration: tenantConfiguration)
        let atProvider = try await WebLoginBench.signUp(users, at: provider, as: "federated")
        let atTenant = try await WebLoginBench.signUp(users, at: tenant, as: "native")
        return try await provider.serving(port: port, tls: identity.tls) { _ in
            try await tenant.serving { endpoint in
                try await measure(
                    endpoint: endpoint, clientID: tenant.clientID, webSecret: webSecret,
                    caBundlePath: identity.caBundlePath, federated: atProvider, native: atTenant)
            }
        }
    }

    private func measure(
        endpoint: TenantEndpoint, clientID: String, webSecret: String, caBundlePath: String,
        federated: [VirtualDevice], native: [VirtualDevice]
    ) async throws -> [Figure] {
        let transport = CurlTransport(configuration: .init(caBundlePath: caBundlePath))
        let authentication = try Authentication(
            clientId: WebLoginBench.clientID, baseURL: endpoint.baseURL, transport: transport)
        let connection = try Tenant(clientID: clientID, baseURL: endpoint.baseURL)
        let webAuth = WebAuth(authentication: authentication).redirectURL(WebLoginBench.callback)
            .scope(connection.scope).clientAuthentication(.clientSecretBasic(ClientSecret(webSecret)))
            .connection(Self.connection).idTokenValidator(IDTokenValidator(authentication: authentication))
        let agents = federated.map { LoginPageUserAgent(device: $0, invokeURL: Self.invokeURL, transport: transport) }
        let nativeUsers = native.map { VirtualUser(tenant: connection, device: $0) }
        return try await Throughput.pairedUserRates(
            users: users, clients: clients, seconds: seconds, rounds: rounds,
            { _ = try await webAuth.start(using: agents[$0]) }, baseline: { try await nativeUsers[$0].logIn() }
        ).map {
            Figure(
                clients: $0.clients, key: "federatedLoginsPerSecond", loginsPerSecond: $0.value,
                nativeLoginsPerSecond: $0.baseline)
        }
    }
}
