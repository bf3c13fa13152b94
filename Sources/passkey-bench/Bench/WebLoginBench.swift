import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant

/// Logins per second through a regular web application's authorization code flow beside the native
/// passkey login, over HTTP on loopback, measured alternately in one run (issue 39).
///
/// The web login is what a server-side app does with a browser in between, the browser's part
/// played by ``LoginPageUserAgent``: `/authorize` with PKCE (RFC 7636), the login page's passkey
/// ceremony (`/u/passkey/options`, the device's assertion, `/u/passkey/verify`), then the code
/// exchanged by the app as a confidential client with `client_secret_basic` (RFC 6749 §2.3.1,
/// §4.1.3) and its ID token validated: four requests. The native login is the existing figure's
/// path (`VirtualUser.logIn`: challenge, assertion, webauthn grant, ID token validated): two. Both
/// sign the same two tokens, so the ratio is what the page's two extra round trips and the
/// client authentication cost.
///
/// `users` users sign up first (in process); client k of K logs in the users whose index is k
/// modulo K in turn, so no two clients log one user in at once, in either figure.
struct WebLoginBench {
    /// The regular web application's callback: never followed, only read back by `WebAuth`.
    static let callback = "http://127.0.0.1/callback"
    /// The application's client ID.
    static let clientID = "passkeyBenchRegularWebApp"

    let users: Int
    let clients: [Int]
    let seconds: Double
    let rounds: Int

    /// Web and native logins per second with K clients, alternating, and their ratio.
    typealias Figure = LoginsBesideNative

    /// Adds the regular web application to `configuration`, a confidential client authenticating
    /// with `client_secret_basic`, and returns its secret.
    static func addApplication(to configuration: inout TenantConfiguration) -> String {
        let secret = UUID().uuidString + UUID().uuidString
        configuration.applications.append(
            TenantApplication(
                name: "passkey-bench-web", appType: .regularWeb, clientID: clientID, clientSecret: Secret(secret),
                callbacks: [callback], tokenEndpointAuthMethod: .clientSecretBasic))
        return secret
    }

    /// `count` users signed up at `tenant` in process (`NAMEi@example.com`), each with a device of
    /// its own.
    static func signUp(_ count: Int, at tenant: PasskeyTenant, as name: String) async throws -> [VirtualDevice] {
        var devices: [VirtualDevice] = []
        for index in 0..<count {
            let store = InMemoryCredentialStore()
            try await TenantCeremonies(
                tenant: tenant, device: WebAuthnClient(authenticator: SoftwareAuthenticator(store: store))
            ).signUp(email: "\(name)\(index)@example.com")
            devices.append(VirtualDevice(store: store))
        }
        return devices
    }

    /// Signs ``users`` users up at `tenant` in process, then measures both logins at `endpoint`
    /// per K, `rounds` times alternately; the medians are kept.
    func figures(tenant: PasskeyTenant, endpoint: TenantEndpoint, secret: String) async throws -> [Figure] {
        let devices = try await Self.signUp(users, at: tenant, as: "web")
        let native = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
        let nativeUsers = devices.map { VirtualUser(tenant: native, device: $0) }
        let transport = CurlTransport()
        let authentication = try Authentication(
            clientId: Self.clientID, baseURL: endpoint.baseURL, transport: transport)
        let webAuth = WebAuth(authentication: authentication).redirectURL(Self.callback).scope(native.scope)
            .clientAuthentication(.clientSecretBasic(ClientSecret(secret)))
            .idTokenValidator(IDTokenValidator(authentication: authentication))
        let pages = devices.map { LoginPageUserAgent(device: $0, transport: transport) }
        return try await Throughput.pairedUserRates(
            users: users, clients: clients, seconds: seconds, rounds: rounds,
            { _ = try await webAuth.start(using: pages[$0]) }, baseline: { try await nativeUsers[$0].logIn() }
        ).map {
            Figure(
                clients: $0.clients, key: "webLoginsPerSecond", loginsPerSecond: $0.value,
                nativeLoginsPerSecond: $0.baseline)
        }
    }
}
