import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// A tenant on a test clock, signing with the fixture key, and a device (the software
/// authenticator behind the WebAuthn client) that answers its challenges as a native app's passkey
/// would, from `https://<rpId>`.
struct TenantHarness: Sendable {
    let tenant: PasskeyTenant
    let clock: TestClock
    let device: WebAuthnClient
    /// The application the ceremonies run as: the tenant's default native one unless
    /// ``acting(as:)`` names another.
    private(set) var clientID: String
    /// That application's secret, sent in the body, when it is a confidential client.
    private(set) var clientSecret: Secret?

    static let origin = try! WebOrigin("https://localhost")

    init(
        configuration: TenantConfiguration = TenantConfiguration(), database: String? = nil,
        profile: AuthenticatorProfile = .platform, clock: TestClock = TestClock(),
        signingKey: Secret? = Secret(FixtureSigningKey.pem)
    ) async throws {
        self.clock = clock
        tenant = try await TestTenant.open(
            configuration: configuration, database: database, clock: clock.tenantClock, signingKey: signingKey)
        device = Self.device(profile)
        clientID = tenant.clientID
    }

    init(tenant: PasskeyTenant, clock: TestClock, device: WebAuthnClient) {
        self.tenant = tenant
        self.clock = clock
        self.device = device
        clientID = tenant.clientID
    }

    /// This harness running its ceremonies as `application` (its client ID, and its secret when
    /// it has one).
    func acting(as application: RegisteredApplication) -> TenantHarness {
        var copy = self
        copy.clientID = application.clientID
        copy.clientSecret = application.clientSecret
        return copy
    }

    /// A new device with an empty store.
    static func device(_ profile: AuthenticatorProfile = .platform, simulation: Simulation? = nil) -> WebAuthnClient {
        WebAuthnClient(
            authenticator: SoftwareAuthenticator(
                store: InMemoryCredentialStore(), profile: profile, simulation: simulation))
    }

    /// Runs `body` against the router, in process.
    func router<T: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        try await tenant.application().test(.router, body)
    }

    // MARK: Ceremonies over HTTP

    func signupChallenge(
        _ http: any TestClientProtocol, email: String = "ada@example.com"
    ) async throws -> CreationChallengeResponse {
        let result = try await http.send(
            .post, "/passkey/register",
            json: SignupChallengeRequest(
                clientID: clientID, userProfile: UserProfile(email: email, name: "Ada"), clientSecret: clientSecret))
        guard result.status == .ok else { throw HarnessError(result) }
        return try result.decode(CreationChallengeResponse.self)
    }

    func loginChallenge(_ http: any TestClientProtocol) async throws -> RequestChallengeResponse {
        let result = try await http.send(
            .post, "/passkey/challenge", json: LoginChallengeRequest(clientID: clientID, clientSecret: clientSecret))
        guard result.status == .ok else { throw HarnessError(result) }
        return try result.decode(RequestChallengeResponse.self)
    }

    /// The webauthn grant's request for `session` with `response`.
    func webAuthnGrant(
        session: Secret, response: PasskeyResponse, scope: String = "openid profile email offline_access",
        audience: String? = nil
    ) -> TokenRequest {
        TokenRequest(
            grantType: TokenRequest.webAuthnGrant, clientID: clientID, authSession: session, authnResponse: response,
            scope: scope, audience: audience, clientSecret: clientSecret)
    }

    /// The webauthn grant for `session` with `response`.
    func grant(
        _ http: any TestClientProtocol, session: Secret, response: PasskeyResponse,
        scope: String = "openid profile email offline_access", audience: String? = nil
    ) async throws -> HTTPResult {
        try await http.send(
            .post, "/oauth/token",
            json: webAuthnGrant(session: session, response: response, scope: scope, audience: audience))
    }

    /// A new signup's `auth_session` and `device`'s registration for it.
    func signupResponse(
        _ http: any TestClientProtocol, email: String = "ada@example.com", device: WebAuthnClient? = nil
    ) async throws -> (session: Secret, response: PasskeyResponse) {
        let challenge = try await signupChallenge(http, email: email)
        let registration = try await (device ?? self.device).create(challenge.options, origin: Self.origin)
        return (challenge.authSession, PasskeyResponse(registration))
    }

    /// A login's `auth_session` and `device`'s assertion for it.
    func loginResponse(
        _ http: any TestClientProtocol, device: WebAuthnClient? = nil
    ) async throws -> (session: Secret, response: PasskeyResponse) {
        let challenge = try await loginChallenge(http)
        let assertion = try await (device ?? self.device).get(challenge.options, origin: Self.origin)
        return (challenge.authSession, PasskeyResponse(assertion))
    }

    /// Signs a new user up with `device`, and returns the tokens.
    func signUp(
        _ http: any TestClientProtocol, email: String = "ada@example.com", device: WebAuthnClient? = nil,
        scope: String = "openid profile email offline_access", audience: String? = nil
    ) async throws -> TokenResponse {
        let (session, response) = try await signupResponse(http, email: email, device: device)
        return try await tokens(grant(http, session: session, response: response, scope: scope, audience: audience))
    }

    /// Logs in with `device`'s passkey, and returns the tokens.
    func logIn(
        _ http: any TestClientProtocol, device: WebAuthnClient? = nil,
        scope: String = "openid profile email offline_access", audience: String? = nil
    ) async throws -> TokenResponse {
        let (session, response) = try await loginResponse(http, device: device)
        return try await tokens(grant(http, session: session, response: response, scope: scope, audience: audience))
    }

    /// The tokens of a grant that answered 200.
    private func tokens(_ result: HTTPResult) throws -> TokenResponse {
        guard result.status == .ok else { throw HarnessError(result) }
        return try result.decode(TokenResponse.self)
    }

    /// A refresh grant.
    func refresh(
        _ http: any TestClientProtocol, _ token: Secret, audience: String? = nil, scope: String? = nil
    ) async throws -> HTTPResult {
        try await http.send(
            .post, "/oauth/token",
            json: TokenRequest(
                grantType: TokenRequest.refreshGrant, clientID: clientID, refreshToken: token, scope: scope,
                audience: audience))
    }
}

/// A ceremony step that did not answer 2xx.
struct HarnessError: Error, CustomStringConvertible {
    let result: HTTPResult

    init(_ result: HTTPResult) {
        self.result = result
    }

    var description: String { "\(result.status.code) \(result.text)" }
}

/// The payload of a JWT, decoded without checking anything.
func jwtClaims(_ token: Secret?) throws -> [String: JSONValue] {
    let parts = try #require(token?.text.split(separator: "."))
    try #require(parts.count == 3)
    return try JSONDecoder().decode([String: JSONValue].self, from: Data(try Base64URL(string: String(parts[1])).bytes))
}
