import Auth0Passkeys
import PasskeyTenant

/// A local tenant with two regular web applications (confidential clients, RFC 6749 §2.1) beside
/// its native one: `web-basic` authenticates with `client_secret_basic` (its secret has the
/// characters that form-encoding changes), `web-post` with `client_secret_post`; both accept
/// ``callback``.
enum RegularWebApps {
    static let callback = "http://127.0.0.1/callback"
    static let basicSecret = "basic-secret with+and:colon"
    static let postSecret = "post-secret"

    /// The client ID of each application and how it authenticates with its own secret.
    static let both: [(clientID: String, method: ClientAuthentication)] = [
        ("web-basic", .clientSecretBasic(ClientSecret(basicSecret))),
        ("web-post", .clientSecretPost(ClientSecret(postSecret))),
    ]

    /// Runs `body` with the tenant served on a free loopback port.
    static func withTenant(_ body: @Sendable (PasskeyTenant, TenantEndpoint) async throws -> Void) async throws {
        var configuration = TenantConfiguration()
        configuration.applications = [
            TenantApplication(
                name: "web-basic", appType: .regularWeb, clientID: "web-basic", clientSecret: Secret(basicSecret),
                callbacks: [callback], tokenEndpointAuthMethod: .clientSecretBasic),
            TenantApplication(
                name: "web-post", appType: .regularWeb, clientID: "web-post", clientSecret: Secret(postSecret),
                callbacks: [callback], tokenEndpointAuthMethod: .clientSecretPost),
        ]
        let tenant = try await PasskeyTenant(configuration: configuration, database: ":memory:")
        try await tenant.serving { endpoint in try await body(tenant, endpoint) }
    }
}
