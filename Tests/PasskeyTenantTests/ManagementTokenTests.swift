import Foundation
import HTTPTypes
import HummingbirdTesting
import InMemoryLogging
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The machine-to-machine client's token (auth0-passkey-api.md §15.1): `client_credentials` with
/// the client secret and the management audience, and every way it is refused.
@Suite struct ManagementTokenTests {
    @Test func theFormGrantGivesAManagementToken() async throws {
        let harness = try await TenantHarness()
        let form = harness.clientCredentials().map { "\($0)=\(WebAuthFlow.encode($1))" }.joined(separator: "&")
        let result = try await harness.router { http in
            try await http.send(.post, "/oauth/token", raw: form, contentType: "application/x-www-form-urlencoded")
        }
        #expect(result.status == .ok, "\(result.text)")
        #expect(result.json["token_type"] == .string("Bearer"))
        #expect(result.json["expires_in"] == .number(86_400))
        #expect(result.json["scope"] == .string(PasskeyTenant.managementScopes.joined(separator: " ")))
        #expect(result.json["id_token"] == nil)
        #expect(result.json["refresh_token"] == nil)
        let claims = try jwtClaims(Secret(try #require(result.json["access_token"]?.stringValue)))
        #expect(claims["sub"] == .string(harness.tenant.managementClientID + "@clients"))
        #expect(claims["gty"] == .string("client-credentials"))
        #expect(claims["aud"] == .string(TenantHarness.managementAudience))
        #expect(claims["azp"] == .string(harness.tenant.managementClientID))
        #expect(claims["iss"] == .string("https://localhost/"))
    }

    @Test func aScopeAskedForNarrowsTheToken() async throws {
        let harness = try await TenantHarness()
        let (narrow, refused) = try await harness.router { http in
            (
                try await http.send(.post, "/oauth/token", json: harness.clientCredentials(["scope": "read:users"])),
                try await http.send(
                    .post, "/oauth/token", json: harness.clientCredentials(["scope": "read:users update:clients"]))
            )
        }
        #expect(narrow.status == .ok)
        #expect(narrow.json["scope"] == .string("read:users"))
        expectRefused(
            refused, "access_denied", status: .forbidden,
            description: "Client has not been granted scopes: update:clients")
    }

    @Test(arguments: [
        ["client_secret": "not-the-secret"], ["client_secret": nil], ["client_id": "someone-else"],
    ])
    func aWrongSecretOrClientIsInvalidClient(changes: [String: String?]) async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.post, "/oauth/token", json: harness.clientCredentials(changes))
        }
        expectRefused(result, "invalid_client", status: .unauthorized)
        #expect(!result.text.contains(harness.tenant.managementClientSecret.text))
    }

    @Test(arguments: ["https://localhost/api/", "https://localhost/me/", "https://other.example/api/v2/", nil])
    func anotherAudienceIsAccessDenied(audience: String?) async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.post, "/oauth/token", json: harness.clientCredentials(["audience": audience]))
        }
        expectRefused(result, "access_denied", status: .forbidden)
    }

    @Test func theNativeApplicationMayNotUseTheGrant() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.post, "/oauth/token", json: harness.clientCredentials(["client_id": harness.clientID]))
        }
        expectRefused(result, "unauthorized_client", status: .forbidden)
    }

    /// Issue 41: a user's login may ask for the management audience (Auth0.swift's
    /// `users(token:)`), and gets the current-user scopes at most: never a management token.
    @Test func theNativeGrantGetsNoManagementTokenForTheManagementAudience() async throws {
        let harness = try await TenantHarness()
        let (result, list) = try await harness.router { http in
            let (session, response) = try await harness.signupResponse(http)
            let result = try await harness.grant(
                http, session: session, response: response, scope: "openid read:users create:users",
                audience: TenantHarness.managementAudience)
            let token = result.json["access_token"]?.stringValue
            return (result, try await http.send(.get, "/api/v2/users-by-email?email=ada%40example.com", bearer: token))
        }
        #expect(result.status == .ok, "\(result.text)")
        #expect(result.json["scope"] == .string("openid"))
        expectManagementError(list, .unauthorized, "invalid_token")
    }

    @Test func theClientIsKeptWithTheDatabase() async throws {
        let directory = try TemporaryDirectory(prefix: "tenant")
        defer { directory.remove() }
        let path = directory.appending("tenant.sqlite")
        let first = try await TenantHarness(database: path)
        let id = first.tenant.managementClientID
        let secret = first.tenant.managementClientSecret
        let second = try await TenantHarness(database: path)
        #expect(second.tenant.managementClientID == id)
        #expect(second.tenant.managementClientSecret == secret)
        #expect(secret.text.count == 64)
        #expect(!"\(secret)".contains(secret.text))
        let other = try await TenantHarness()
        #expect(other.tenant.managementClientID != id)
    }

    @Test func aTracedManagementSessionLogsNoSecret() async throws {
        let (harness, logs) = try await SecretRedactionTests.tracedHarness()
        let token = try await harness.router { http in
            let token = try await harness.managementToken(http)
            _ = try await harness.createManagedUser(http, token: token)
            _ = try await http.send(.post, "/oauth/token", json: harness.clientCredentials(["client_secret": "wrong"]))
            return token
        }
        let text = logs.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(logs.entries.count >= 3)
        #expect(!text.contains(harness.tenant.managementClientSecret.text))
        #expect(!text.contains(token))
    }

    @Test func discoveryListsTheGrant() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in try await http.send(.get, "/.well-known/openid-configuration") }
        #expect(result.json["grant_types_supported"]?.arrayValue?.contains(.string("client_credentials")) == true)
        #expect(
            result.json["token_endpoint_auth_methods_supported"]?.arrayValue?.contains(.string("client_secret_post"))
                == true)
    }
}
