import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// Web Auth with no browser: the local tenant's login page driven by ``LoginPageUserAgent`` with a
/// virtual device, the code exchanged by a regular web application (`client_secret_basic`,
/// `client_secret_post`) and by the public native one, against a tenant served on loopback.
@Suite struct LoginPageUserAgentTests {
    static let callback = RegularWebApps.callback
    static let basicSecret = RegularWebApps.basicSecret
    static let postSecret = RegularWebApps.postSecret

    /// A tenant with two regular web applications, `web-basic` and `web-post` (``RegularWebApps``).
    private func withTenant(_ body: @Sendable (PasskeyTenant, TenantEndpoint) async throws -> Void) async throws {
        try await RegularWebApps.withTenant(body)
    }

    private func webAuth(_ clientID: String, _ endpoint: TenantEndpoint, _ method: ClientAuthentication) throws
        -> WebAuth
    {
        let authentication = try Authentication(clientId: clientID, baseURL: endpoint.baseURL)
        return WebAuth(authentication: authentication).redirectURL(Self.callback).clientAuthentication(method)
    }

    @Test func aRegularWebAppSignsUpAndLogsInWithClientSecretBasic() async throws {
        try await withTenant { _, endpoint in
            let device = VirtualDevice(store: InMemoryCredentialStore())
            let signedUp = try await webAuth("web-basic", endpoint, .clientSecretBasic(ClientSecret(Self.basicSecret)))
                .start(using: LoginPageUserAgent(device: device, ceremony: .signUp(identifier: "ada@example.com")))
            let secret = Self.basicSecret
            // snippet.begin
            let web = try Authentication(clientId: "web-basic", baseURL: endpoint.baseURL)
            let credentials = try await WebAuth(authentication: web)
                .redirectURL("http://127.0.0.1/callback")  // one of the application's Allowed Callback URLs
                .clientAuthentication(.clientSecretBasic(ClientSecret(secret)))
                .idTokenValidator(IDTokenValidator(authentication: web))
                .start(using: LoginPageUserAgent(device: device))
            // snippet.end
            let loggedIn = credentials
            #expect(try subject(signedUp) != nil)
            #expect(try subject(loggedIn) == subject(signedUp))
            #expect(loggedIn.refreshToken != nil)
        }
    }

    @Test func clientSecretPostAndAPublicNativeAppLogInTheSameUser() async throws {
        try await withTenant { tenant, endpoint in
            let device = VirtualDevice(store: InMemoryCredentialStore())
            let native = try webAuth(tenant.clientID, endpoint, .none).redirectURL("http://127.0.0.1/callback")
            let signedUp = try await native.start(
                using: LoginPageUserAgent(device: device, ceremony: .signUp(identifier: "grace@example.com")))
            let post = try webAuth("web-post", endpoint, .clientSecretPost(ClientSecret(Self.postSecret)))
            let loggedIn = try await post.start(using: LoginPageUserAgent(device: device))
            #expect(try subject(loggedIn) == subject(signedUp))
        }
    }

    /// The tenant refuses a wrong secret, and a secret sent another way than the application's
    /// (`invalid_client`, RFC 6749 §5.2), after the page has issued the code.
    @Test(arguments: [
        ClientAuthentication.clientSecretBasic(ClientSecret("wrong")),
        .clientSecretPost(ClientSecret(LoginPageUserAgentTests.basicSecret)),
        .none,
    ])
    func aConfidentialClientThatDoesNotAuthenticateIsRefused(_ method: ClientAuthentication) async throws {
        try await withTenant { _, endpoint in
            let device = VirtualDevice(store: InMemoryCredentialStore())
            let good = try webAuth("web-basic", endpoint, .clientSecretBasic(ClientSecret(Self.basicSecret)))
            _ = try await good.start(
                using: LoginPageUserAgent(device: device, ceremony: .signUp(identifier: "eve@example.com")))
            let error = await #expect(throws: WebAuthError.self) {
                try await webAuth("web-basic", endpoint, method).start(using: LoginPageUserAgent(device: device))
            }
            #expect(error?.code == .authenticationFailed || error?.code == .pkceNotAllowed)
            #expect(error?.authenticationError?.statusCode == 401 || error?.authenticationError?.statusCode == 403)
        }
    }

    /// A device with no passkey for the RP refuses the page's request: the flow fails with the
    /// device's `NotAllowedError`, and nothing is exchanged.
    @Test func aDeviceWithoutAPasskeyFailsTheUserAgent() async throws {
        try await withTenant { _, endpoint in
            let web = try webAuth("web-basic", endpoint, .clientSecretBasic(ClientSecret(Self.basicSecret)))
            let error = await #expect(throws: WebAuthError.self) {
                try await web.start(using: LoginPageUserAgent(device: VirtualDevice(store: InMemoryCredentialStore())))
            }
            #expect(error?.code == .userAgentFailed)
            guard case .device(let refusal)? = error?.cause as? PasskeyFlowError else {
                Issue.record("not the device's refusal: \(String(describing: error?.cause))")
                return
            }
            #expect(refusal.name == .notAllowed)
        }
    }
}
