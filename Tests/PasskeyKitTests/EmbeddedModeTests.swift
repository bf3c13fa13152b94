import Auth0Passkeys
import FoundationEssentials
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// The embedded SDK's part against a real local tenant in the provider's embedded mode (issue 40,
/// steps 3–5), served on loopback: an application with an invoke URL logs in through Web Auth,
/// ``LoginPageUserAgent`` answering the invoke URL with the device's passkey and opening the
/// continue URL with the same cookies; a refusal ends at the application as `access_denied`; a
/// spent authenticate URL is refused.
@Suite struct EmbeddedModeTests {
    static let callback = "http://127.0.0.1/callback"
    static let invoke = "http://127.0.0.1/invoke"

    /// A tenant with a native application `embedded` whose invoke URL is ``invoke``, beside its
    /// default one (whose login page signs the user up).
    private func withTenant(_ body: @Sendable (PasskeyTenant, TenantEndpoint) async throws -> Void) async throws {
        var configuration = TenantConfiguration()
        configuration.applications = [
            TenantApplication(
                name: "embedded", appType: .native, clientID: "embedded", callbacks: [Self.callback],
                invokeURL: Self.invoke)
        ]
        let tenant = try await PasskeyTenant(configuration: configuration, database: ":memory:")
        try await tenant.serving { endpoint in try await body(tenant, endpoint) }
    }

    private func webAuth(_ clientID: String, _ endpoint: TenantEndpoint) throws -> WebAuth {
        WebAuth(authentication: try Authentication(clientId: clientID, baseURL: endpoint.baseURL))
            .redirectURL(Self.callback)
    }

    @Test func anAppWithAnInvokeURLLogsInWithTheDevicesPasskey() async throws {
        try await withTenant { tenant, endpoint in
            let device = VirtualDevice(store: InMemoryCredentialStore())
            let signedUp = try await webAuth(tenant.clientID, endpoint).start(
                using: LoginPageUserAgent(device: device, ceremony: .signUp(identifier: "ada@example.com")))
            // snippet.begin
            let app = try Authentication(clientId: "embedded", baseURL: endpoint.baseURL)
            let credentials = try await WebAuth(authentication: app)
                .redirectURL("http://127.0.0.1/callback")
                .start(using: LoginPageUserAgent(device: device, invokeURL: "http://127.0.0.1/invoke"))
            // snippet.end
            #expect(try subject(credentials) == subject(signedUp))
        }
    }

    /// A device with no passkey for the tenant refuses; the user agent cancels at the
    /// authenticate URL and the tenant's `access_denied` reaches the application.
    @Test func aRefusalReachesTheAppAsAccessDenied() async throws {
        try await withTenant { _, endpoint in
            let agent = LoginPageUserAgent(
                device: VirtualDevice(store: InMemoryCredentialStore()), invokeURL: Self.invoke)
            let error = await #expect(throws: WebAuthError.self) {
                try await webAuth("embedded", endpoint).start(using: agent)
            }
            #expect(error?.code == .authenticationFailed)
            #expect(error?.authenticationError?.code == AuthenticationError.Code(rawValue: "access_denied"))
        }
    }

    /// `authenticate(url:passkey:)` by hand: the authenticate URL from the invoke redirect, the
    /// continue URL it answers; the URL is then spent (`invalid_request`), and a `request` the
    /// tenant never issued is refused the same way.
    @Test func anAuthenticateURLIsSpentByItsLogin() async throws {
        try await withTenant { tenant, endpoint in
            let device = VirtualDevice(store: InMemoryCredentialStore())
            _ = try await webAuth(tenant.clientID, endpoint).start(
                using: LoginPageUserAgent(device: device, ceremony: .signUp(identifier: "grace@example.com")))
            let authorization = try webAuth("embedded", endpoint).authorization()
            // The tenant sends 127.0.0.1 to localhost (its RP ID) first, then to the invoke URL.
            var location = authorization.url
            for _ in 0..<2 where !location.hasPrefix(Self.invoke) {
                let redirect = try await CurlTransport().send(HTTPRequest(method: .get, url: location))
                #expect(redirect.status == 302)
                location = try #require(redirect.header("Location"))
            }
            let target = try #require(
                EmbeddedAuthentication.authenticateURL(invoking: location, invokeURL: Self.invoke))
            let embedded = EmbeddedAuthentication()
            let next = try await embedded.authenticate(url: target, passkey: device.authenticator)
            #expect(next.contains("/embedded/continue?request="))
            let spent = await #expect(throws: AuthenticationError.self) { try await embedded.options(url: target) }
            #expect(spent?.code == .invalidRequest && spent?.statusCode == 400)
            let forged = target.prefix { $0 != "=" } + "=" + Base64URL.encode(SecureRandom.bytes(32))
            let unknown = await #expect(throws: AuthenticationError.self) {
                try await embedded.options(url: String(forged))
            }
            #expect(unknown?.code == .invalidRequest)
        }
    }
}
