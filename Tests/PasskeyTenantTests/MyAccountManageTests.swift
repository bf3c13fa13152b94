import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// My Account's passkey management: renaming a method and the factors list (auth0-passkey-api.md
/// §19.1, §19.2).
@Suite struct MyAccountManageTests {
    static let scopes =
        "openid read:me:authentication_methods update:me:authentication_methods read:me:factors"

    /// A signed-up user's My Account token with `scope`.
    private func myAccountToken(
        _ harness: TenantHarness, _ http: any TestClientProtocol, email: String = "ada@example.com",
        scope: String = scopes
    ) async throws -> String {
        try await harness.signUp(
            http, email: email, device: TenantHarness.device(), scope: scope, audience: "https://localhost/me/"
        )
        .accessToken.text
    }

    /// The path of the user's first method, its `|` percent-encoded as the SDK sends it.
    private func firstMethodPath(_ http: any TestClientProtocol, token: String) async throws -> String {
        let list = try await http.send(.get, "/me/v1/authentication-methods", bearer: token)
        let id = try #require(list.json["authentication_methods"]?.arrayValue?.first?.objectValue?["id"]?.stringValue)
        return "/me/v1/authentication-methods/" + id.replacingOccurrences(of: "|", with: "%7C")
    }

    @Test func aRenamedPasskeyKeepsItsName() async throws {
        let harness = try await TenantHarness()
        let (renamed, one, list) = try await harness.router { http in
            let token = try await myAccountToken(harness, http)
            let path = try await firstMethodPath(http, token: token)
            let renamed = try await http.send(.patch, path, raw: #"{"name":"Work laptop"}"#, bearer: token)
            return (
                renamed, try await http.send(.get, path, bearer: token),
                try await http.send(.get, "/me/v1/authentication-methods", bearer: token)
            )
        }
        #expect(renamed.status == .ok, "\(renamed.text)")
        #expect(renamed.json["name"] == .string("Work laptop"))
        #expect(renamed.json["type"] == .string("passkey"))
        #expect(renamed.json["usage"] == .array([.string("primary")]))
        #expect(one.json["name"] == .string("Work laptop"))
        #expect(list.json["authentication_methods"]?.arrayValue?.first?.objectValue?["name"] == .string("Work laptop"))
    }

    @Test func aRawBarNamesTheSameMethod() async throws {
        let harness = try await TenantHarness()
        let renamed = try await harness.router { http in
            let token = try await myAccountToken(harness, http)
            let path = try await firstMethodPath(http, token: token).replacingOccurrences(of: "%7C", with: "|")
            return try await http.send(.patch, path, json: AuthenticationMethodUpdate(name: "Phone"), bearer: token)
        }
        #expect(renamed.status == .ok, "\(renamed.text)")
        #expect(renamed.json["name"] == .string("Phone"))
    }

    @Test func renamingNeedsTheUpdateScope() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            let token = try await myAccountToken(harness, http, scope: "openid read:me:authentication_methods")
            let path = try await firstMethodPath(http, token: token)
            return try await http.send(.patch, path, raw: #"{"name":"Work laptop"}"#, bearer: token)
        }
        #expect(result.status == .forbidden)
        #expect(result.json["type"] == .string("insufficient_scope"))
        #expect(result.json["status"] == .number(403))
    }

    @Test(arguments: [
        #"{"name":""}"#,
        #"{"name":"\#(String(repeating: "n", count: 129))"}"#,
        #"{"preferred_authentication_method":"sms"}"#,
        #"{"name":"Laptop","preferred_authentication_method":"voice"}"#,
        #"{"name":"Laptop","type":"totp"}"#,
        #"{"name":7}"#,
        #"{}"#,
        #"{"#,
    ])
    func aBadBodyIsABadRequest(body: String) async throws {
        let harness = try await TenantHarness()
        let (result, after) = try await harness.router { http in
            let token = try await myAccountToken(harness, http)
            let path = try await firstMethodPath(http, token: token)
            return (
                try await http.send(.patch, path, raw: body, bearer: token),
                try await http.send(.get, path, bearer: token)
            )
        }
        #expect(result.status == .badRequest, "\(result.text)")
        #expect(result.json["status"] == .number(400))
        #expect(result.json["title"] == .string("Bad Request"))
        #expect(result.json["detail"] != nil)
        #expect(after.json["name"] == nil)
    }

    @Test func aNameOf128CharactersIsKept() async throws {
        let harness = try await TenantHarness()
        let name = String(repeating: "é", count: 128)
        let result = try await harness.router { http in
            let token = try await myAccountToken(harness, http)
            let path = try await firstMethodPath(http, token: token)
            return try await http.send(.patch, path, json: AuthenticationMethodUpdate(name: name), bearer: token)
        }
        #expect(result.status == .ok, "\(result.text)")
        #expect(result.json["name"] == .string(name))
    }

    @Test func anotherUsersOrAnUnknownMethodIsNotFound() async throws {
        let harness = try await TenantHarness()
        let (theirs, unknown, untouched) = try await harness.router { http in
            let alice = try await myAccountToken(harness, http, email: "alice@example.com")
            let bob = try await myAccountToken(harness, http, email: "bob@example.com")
            let alicePath = try await firstMethodPath(http, token: alice)
            return (
                try await http.send(.patch, alicePath, raw: #"{"name":"Mine now"}"#, bearer: bob),
                try await http.send(
                    .patch, "/me/v1/authentication-methods/passkey%7Cnope", raw: #"{"name":"x"}"#, bearer: bob),
                try await http.send(.get, alicePath, bearer: alice)
            )
        }
        #expect(theirs.status == .notFound)
        #expect(theirs.json["status"] == .number(404))
        #expect(unknown.status == .notFound)
        #expect(untouched.status == .ok)
        #expect(untouched.json["name"] == nil)
    }

    @Test func factorsListPasskeysAsAFirstFactor() async throws {
        let harness = try await TenantHarness()
        let (factors, noScope, noToken) = try await harness.router { http in
            let token = try await myAccountToken(harness, http)
            let reader = try await myAccountToken(
                harness, http, email: "b@example.com", scope: "openid read:me:authentication_methods")
            return (
                try await http.send(.get, "/me/v1/factors", bearer: token),
                try await http.send(.get, "/me/v1/factors", bearer: reader),
                try await http.send(.get, "/me/v1/factors")
            )
        }
        #expect(factors.status == .ok)
        #expect(factors.text == #"{"factors":[{"type":"passkey","usage":["primary"]}]}"#)
        #expect(noScope.status == .forbidden)
        #expect(noScope.json["type"] == .string("insufficient_scope"))
        #expect(noToken.status == .unauthorized)
        #expect(noToken.json["type"] == .string("invalid_token"))
    }

    /// The name lives in the database (migration v3): a restarted tenant still reports it.
    @Test func aNameSurvivesARestart() async throws {
        let directory = try TemporaryDirectory(prefix: "tenant")
        defer { directory.remove() }
        let path = directory.appending("tenant.sqlite")
        let first = try await TenantHarness(database: path)
        let (token, methodPath) = try await first.router { http in
            let token = try await myAccountToken(first, http)
            let methodPath = try await firstMethodPath(http, token: token)
            let renamed = try await http.send(.patch, methodPath, raw: #"{"name":"Work laptop"}"#, bearer: token)
            #expect(renamed.status == .ok)
            return (token, methodPath)
        }
        let clock = TestClock()
        let second = TenantHarness(
            tenant: try await PasskeyTenant(database: path, clock: clock.tenantClock), clock: clock,
            device: first.device)
        let reread = try await second.router { http in try await http.send(.get, methodPath, bearer: token) }
        #expect(reread.status == .ok, "\(reread.text)")
        #expect(reread.json["name"] == .string("Work laptop"))
    }
}
