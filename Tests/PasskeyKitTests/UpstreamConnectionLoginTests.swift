import Auth0Passkeys
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The whole story of issue 40 with the library alone, over two real tenants on loopback: the
/// app logs in at **A** (plain http) through an upstream OpenID Connect connection to **B** (TLS
/// from a test CA, `https://localhost:PORT`), whose client for A has an invoke URL
/// (`embedded`: the device answers it) or none (`page`: B's login page, run at B's origin);
/// ``LoginPageUserAgent`` keeps the cookies of both along the way. A's tokens are for
/// `oidc|CONNECTION|<B's sub>`.
@Suite(.temporaryDirectory) struct UpstreamConnectionLoginTests {
    static let callback = "http://127.0.0.1/callback"
    static let invoke = "http://127.0.0.1/invoke"

    /// Serves B with two applications for A (`a-embedded` with the invoke URL, `a-page` without),
    /// then A at `127.0.0.1` with a connection to each, and runs `body` (``UpstreamTenants``).
    private func withPair(_ body: @Sendable (UpstreamTenants) async throws -> Void) async throws {
        try await UpstreamTenants.run(
            links: [
                .init(connection: "embedded", clientID: "a-embedded", invokeURL: Self.invoke),
                .init(connection: "page", clientID: "a-page"),
            ],
            aHost: "127.0.0.1", body)
    }

    /// A device whose user signed up on B's login page, and B's `sub` for them.
    private func signedUpAtB(_ pair: UpstreamTenants) async throws -> (VirtualDevice, String) {
        let device = VirtualDevice(store: InMemoryCredentialStore())
        let auth = try Authentication(clientId: pair.b.clientID, baseURL: pair.bURL, transport: pair.transport)
        let credentials = try await WebAuth(authentication: auth).redirectURL(Self.callback).start(
            using: LoginPageUserAgent(
                device: device, ceremony: .signUp(identifier: "ada@example.com"), transport: pair.transport))
        let user = try await auth.userInfo(withAccessToken: credentials.accessToken).start()
        return (device, user.sub)
    }

    @Test func theEmbeddedModeLogsInAtAThroughB() async throws {
        try await withPair { pair in
            let (device, bSubject) = try await signedUpAtB(pair)
            let app = try Authentication(clientId: pair.a.clientID, baseURL: pair.aURL)
            let credentials = try await WebAuth(authentication: app)
                .redirectURL(Self.callback)
                .connection("embedded")
                .start(using: LoginPageUserAgent(device: device, invokeURL: Self.invoke, transport: pair.transport))
            let user = try await app.userInfo(withAccessToken: credentials.accessToken).start()
            #expect(user.sub == "oidc|embedded|\(bSubject)")
        }
    }

    /// B's page-driven mode, through a virtual user's web login with a connection.
    @Test func thePageDrivenModeLogsInAVirtualUserThroughBsPage() async throws {
        try await withPair { pair in
            let (device, bSubject) = try await signedUpAtB(pair)
            let user = VirtualUser(tenant: try Tenant(clientID: pair.a.clientID, baseURL: pair.aURL), device: device)
            let result = try await user.logInOnTheWeb(
                redirectURL: Self.callback, connection: "page",
                using: LoginPageUserAgent(device: device, invokeURL: Self.invoke, transport: pair.transport))
            #expect(result.user.sub == "oidc|page|\(bSubject)")
        }
    }

    /// A device with no passkey for B cancels at B; the app hears `access_denied` from A.
    @Test func aRefusalAtBReachesTheAppThroughA() async throws {
        try await withPair { pair in
            let app = try Authentication(clientId: pair.a.clientID, baseURL: pair.aURL)
            let agent = LoginPageUserAgent(
                device: VirtualDevice(store: InMemoryCredentialStore()), invokeURL: Self.invoke,
                transport: pair.transport)
            let error = await #expect(throws: WebAuthError.self) {
                try await WebAuth(authentication: app).redirectURL(Self.callback).connection("embedded")
                    .start(using: agent)
            }
            #expect(error?.code == .authenticationFailed)
            #expect(error?.authenticationError?.code == AuthenticationError.Code(rawValue: "access_denied"))
        }
    }
}

extension UpstreamTenants {
    /// The real HTTP client, trusting the test CA (for B).
    fileprivate var transport: CurlTransport { CurlTransport(configuration: .init(caBundlePath: caBundlePath)) }
}
