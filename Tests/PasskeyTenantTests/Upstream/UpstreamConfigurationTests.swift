import Foundation
import PasskeyTenant
import TestSupport
import Testing

/// Upstream connections as configured: `--connection`, the configuration file's `connections` in
/// Auth0's key names, and the checks when the tenant opens, whose messages name the connection and
/// never the secret.
struct UpstreamConfigurationTests {
    @Test func theOptionTakesAuth0sOptionKeys() throws {
        let connection = try UpstreamConnection(
            option: "idp=oidc,issuer=https://idp.example.com/,client_id=abc,client_secret_env=IDP_SECRET,"
                + "scope=openid email,discovery_url=https://idp.example.com/.well-known/openid-configuration")
        #expect(connection.name == "idp")
        #expect(connection.issuer == "https://idp.example.com/")
        #expect(connection.clientID == "abc")
        #expect(connection.clientSecretEnv == "IDP_SECRET")
        #expect(connection.clientSecret == nil)
        #expect(connection.scope == "openid email")
        #expect(connection.discoveryURL == "https://idp.example.com/.well-known/openid-configuration")
    }

    @Test(arguments: [
        ("idp", "NAME=oidc"),
        ("idp=saml,issuer=https://i.example/,client_id=a,client_secret_env=V", "only the oidc strategy"),
        ("idp=oidc,client_id=a,client_secret_env=V", "issuer and client_id are required"),
        ("idp=oidc,issuer=http://i.example/,client_id=a,client_secret_env=V", "issuer must be an https URL"),
        ("idp=oidc,issuer=https://i.example/,client_id=a", "one of client_secret and client_secret_env"),
        ("idp=oidc,issuer=https://i.example/,client_id=a,client_secret=s3cr3t", "not key=value with a known key"),
        ("idp=oidc,issuer=https://i.example/,client_id=a,client_secret_env=V,scope=email", "must contain openid"),
        ("i d=oidc,issuer=https://i.example/,client_id=a,client_secret_env=V", "letters, digits and -"),
        ("idp=oidc,issuer=https://i.example/,client_id=a,client_secret_env=V,colour=red", "colour"),
    ])
    func aBadOptionIsRefusedSayingWhy(option: String, reason: String) {
        let error = #expect(throws: TenantError.self) { try UpstreamConnection(option: option) }
        #expect(error?.detail.contains(reason) == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains("s3cr3t") == false)
    }

    @Test func theConfigurationFileTakesConnectionsInAuth0sKeyNames() throws {
        var configuration = TenantConfiguration()
        try configuration.apply(
            configurationFile: Array(
                """
                {"connections": [{"name": "idp", "strategy": "oidc",
                  "options": {"issuer": "https://idp.example.com/", "client_id": "abc", "client_secret": "s3cr3t",
                              "scope": "openid profile", "type": "back_channel"}}]}
                """.utf8))
        #expect(configuration.connections.map(\.name) == ["idp"])
        #expect(configuration.connections.first?.clientSecret?.text == "s3cr3t")
        #expect(!"\(configuration.connections)".contains("s3cr3t"))

        for (file, reason) in [
            (
                #"{"connections": [{"name": "idp", "strategy": "oidc", "options": {"issuer": "https://i.example/"}}]}"#,
                "issuer and client_id are required"
            ),
            (
                #"{"connections": [{"name": "idp", "strategy": "oidc", "options": {"issuer": "https://i.example/", "client_id": "a", "client_secret": "s", "type": "front_channel"}}]}"#,
                "only back_channel"
            ),
            (#"{"connections": [{"name": "x", "strategy": "oidc", "options": {}, "extra": 1}]}"#, "extra"),
            (
                #"{"connections": [{"name": "Username-Password-Authentication", "strategy": "oidc", "options": {"issuer": "https://i.example/", "client_id": "a", "client_secret": "s"}}]}"#,
                "taken by another connection"
            ),
        ] {
            var again = TenantConfiguration()
            let error = #expect(throws: TenantError.self) { try again.apply(configurationFile: Array(file.utf8)) }
            #expect(error?.detail.contains(reason) == true, "\(error?.detail ?? "")")
        }
    }

    @Test func theTenantRefusesToOpenWithoutTheSecretsVariableNamingTheConnection() async throws {
        var configuration = TenantConfiguration()
        configuration.connections = [
            UpstreamConnection(
                name: "idp", issuer: "https://idp.example.com/", clientID: "abc",
                clientSecretEnv: "PASSKEY_TEST_UNSET_VARIABLE_FOR_UPSTREAM")
        ]
        let error = await #expect(throws: TenantError.self) { try await PasskeyTenant(configuration: configuration) }
        #expect(error?.code == .invalidConfiguration)
        #expect(
            error?.detail
                == "connection idp: client_secret_env PASSKEY_TEST_UNSET_VARIABLE_FOR_UPSTREAM is not set in the environment"
        )
    }
}
