import PasskeyTenant
import TestSupport
import Testing

/// Applications as Auth0 has them (`clients` in the configuration file, `tenant serve --app`):
/// Auth0's key names in, the type's defaults for what is left out, and a contradiction refused
/// with the key named.
@Suite struct ApplicationConfigurationTests {
    static let file = """
        {"clients": [
           {"name": "web", "app_type": "regular_web", "callbacks": ["https://app.example/callback"],
            "allowed_logout_urls": ["https://app.example/"], "web_origins": ["https://app.example"],
            "allowed_origins": ["https://app.example"], "token_endpoint_auth_method": "client_secret_basic",
            "grant_types": ["authorization_code", "refresh_token"]},
           {"name": "spa", "app_type": "spa", "client_id": "spa-client"},
           {"name": "m2m", "app_type": "non_interactive", "client_secret": "given-secret"}]}
        """

    @Test func aFileInAuth0sKeyNamesAddsApplications() throws {
        var configuration = TenantConfiguration()
        try configuration.apply(configurationFile: Array(Self.file.utf8))
        let (web, spa, m2m) = (
            configuration.applications[0], configuration.applications[1], configuration.applications[2]
        )
        #expect(configuration.applications.count == 3)
        #expect(web.appType == .regularWeb && web.tokenEndpointAuthMethod == .clientSecretBasic)
        #expect(web.callbacks == ["https://app.example/callback"])
        #expect(web.allowedLogoutURLs == ["https://app.example/"])
        #expect(web.webOrigins == ["https://app.example"] && web.allowedOrigins == ["https://app.example"])
        #expect(web.grantTypes == ["authorization_code", "refresh_token"])
        #expect(web.clientID == nil && web.clientSecret == nil)
        #expect(spa.clientID == "spa-client" && spa.tokenEndpointAuthMethod == .none && !spa.isConfidential)
        #expect(spa.grantTypes == ["authorization_code", "refresh_token"])
        #expect(m2m.tokenEndpointAuthMethod == .clientSecretPost && m2m.grantTypes == ["client_credentials"])
        #expect(m2m.clientSecret?.text == "given-secret")
        #expect(!"\(m2m)".contains("given-secret"))
    }

    @Test(arguments: [
        (#"{"clients": [{"name": "a", "app_type": "desktop"}]}"#, "clients[0].app_type"),
        (
            #"{"clients": [{"name": "a", "app_type": "spa", "token_endpoint_auth_method": "client_secret_post"}]}"#,
            "clients[0].token_endpoint_auth_method"
        ),
        (
            #"{"clients": [{"name": "a", "app_type": "regular_web", "token_endpoint_auth_method": "none"}]}"#,
            "clients[0].token_endpoint_auth_method"
        ),
        (#"{"clients": [{"name": "a", "app_type": "native", "client_secret": "s"}]}"#, "clients[0].client_secret"),
        (
            #"{"clients": [{"name": "a", "app_type": "spa", "grant_types": ["client_credentials"]}]}"#,
            "clients[0].grant_types"
        ),
        (#"{"clients": [{"name": "a", "app_type": "spa", "grant_types": ["implicit"]}]}"#, "clients[0].grant_types"),
        (
            #"{"clients": [{"name": "a", "app_type": "non_interactive", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn"]}]}"#,
            "clients[0].grant_types"
        ),
        (#"{"clients": [{"name": "a", "app_type": "spa", "callbacks": ["/relative"]}]}"#, "clients[0]"),
        (#"{"clients": [{"name": "a", "app_type": "spa", "logo_uri": "x"}]}"#, "clients[0].logo_uri"),
        (#"{"clients": [{"app_type": "spa"}]}"#, "clients[0].name"),
        (#"{"clients": [{"name": "a", "app_type": "spa"}, {"name": "a", "app_type": "native"}]}"#, "clients[1].name"),
    ])
    func aContradictionIsRefusedNamingTheKey(file: String, key: String) throws {
        var configuration = TenantConfiguration()
        let error = #expect(throws: TenantError.self) { try configuration.apply(configurationFile: Array(file.utf8)) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.detail.hasPrefix(key) == true, "\(error?.detail ?? "")")
    }

    @Test func theOptionTakesAuth0sKeyNames() throws {
        let app = try TenantApplication(
            option: "name=web,app_type=regular_web,callbacks=http://127.0.0.1/cb,callbacks=https://app.example/cb,"
                + "token_endpoint_auth_method=client_secret_basic,client_secret=abc")
        #expect(app.name == "web" && app.appType == .regularWeb)
        #expect(app.callbacks == ["http://127.0.0.1/cb", "https://app.example/cb"])
        #expect(app.tokenEndpointAuthMethod == .clientSecretBasic)
        #expect(app.clientSecret?.text == "abc")
    }

    @Test(arguments: ["name=web", "app_type=spa", "name=web,app_type=spa,colour=red", "name=web,app_type", ""])
    func aBadOptionIsRefused(option: String) {
        let error = #expect(throws: TenantError.self) { try TenantApplication(option: option) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.detail.hasPrefix("--app") == true, "\(error?.detail ?? "")")
    }

    @Test func generatedCredentialsAreKeptWithTheDatabase() async throws {
        let directory = try TemporaryDirectory(prefix: "tenant")
        defer { directory.remove() }
        let path = directory.appending("tenant.sqlite")
        var configuration = TenantConfiguration()
        configuration.applications = [TenantApplication(name: "web", appType: .regularWeb)]
        let first = try await TenantHarness(configuration: configuration, database: path)
        let second = try await TenantHarness(configuration: configuration, database: path)
        let app = try #require(first.tenant.applications.first)
        #expect(app.clientID.count == 32)
        #expect(app.clientSecret?.text.count == 64)
        #expect(second.tenant.applications.first?.clientID == app.clientID)
        #expect(second.tenant.applications.first?.clientSecret == app.clientSecret)
        #expect(app.clientID != first.clientID && app.clientID != first.tenant.managementClientID)
    }

    /// A single-page application with one thing changed.
    static func spa(_ change: (inout TenantApplication) -> Void) -> TenantApplication {
        var application = TenantApplication(name: "spa", appType: .spa)
        change(&application)
        return application
    }

    /// A ``TenantConfiguration`` built in Swift goes through the same check as the file and
    /// `--app` when the tenant opens: a bad origin is refused, never dropped.
    @Test(arguments: [
        (spa { $0.webOrigins = ["app.example"] }, "applications[0]: app.example is not an origin"),
        (spa { $0.allowedOrigins = ["https://app.example/path"] }, "applications[0]: https://app.example/path"),
        (spa { $0.clientSecret = Secret("s") }, "applications[0].client_secret"),
        (spa { $0.callbacks = ["/callback"] }, "applications[0]: /callback"),
    ])
    func anApplicationBuiltInSwiftIsRefusedWhenTheTenantOpens(application: TenantApplication, detail: String) async {
        var configuration = TenantConfiguration()
        configuration.applications = [application]
        let error = await #expect(throws: TenantError.self) { try await PasskeyTenant(configuration: configuration) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.detail.hasPrefix(detail) == true, "\(error?.detail ?? "")")
    }

    @Test func twoApplicationsOfOneNameAreRefusedWhenTheTenantOpens() async {
        var configuration = TenantConfiguration()
        configuration.applications = [
            TenantApplication(name: "a", appType: .spa), TenantApplication(name: "a", appType: .native),
        ]
        let error = await #expect(throws: TenantError.self) { try await PasskeyTenant(configuration: configuration) }
        #expect(error?.detail == "applications[1].name: a is given twice")
    }
}
