import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The Management API's routes (auth0-passkey-api.md §15.2–§15.4): each success, and its
/// refusals in the Management API's error shape.
@Suite struct ManagementAPITests {
    static let connection = "Username-Password-Authentication"

    // MARK: Users

    @Test func aCreatedUserIsFoundByIDAndEmail() async throws {
        let harness = try await TenantHarness()
        let (created, byID, byEmail, none) = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let created = try await http.send(
                .post, "/api/v2/users",
                raw: #"{"connection":"\#(Self.connection)","email":"Ada@Example.com","email_verified":true}"#,
                bearer: token)
            let id = try #require(created.json["user_id"]?.stringValue)
            return (
                created, try await http.send(.get, "/api/v2/users/" + TenantHarness.pathEncoded(id), bearer: token),
                try await http.send(.get, "/api/v2/users-by-email?email=ADA%40example.com", bearer: token),
                try await http.send(.get, "/api/v2/users-by-email?email=bob%40example.com", bearer: token)
            )
        }
        #expect(created.status == .created, "\(created.text)")
        let id = try #require(created.json["user_id"]?.stringValue)
        #expect(id.hasPrefix("auth0|") && id.count == 30)
        #expect(created.json["email"] == .string("ada@example.com"))
        #expect(created.json["email_verified"] == .bool(true))
        #expect(created.json["name"] == .string("ada@example.com"))
        #expect(created.json["nickname"] == .string("ada"))
        let identity = try #require(created.json["identities"]?.arrayValue?.first?.objectValue)
        #expect(identity["connection"] == .string(Self.connection))
        #expect(identity["provider"] == .string("auth0"))
        #expect(identity["isSocial"] == .bool(false))
        #expect(identity["user_id"] == .string(String(id.dropFirst("auth0|".count))))
        #expect(created.json["created_at"]?.stringValue?.hasSuffix("Z") == true)
        #expect(byID.status == .ok)
        #expect(byID.json == created.json)
        #expect(byEmail.status == .ok)
        let found = try byEmail.decode([JSONValue].self)
        #expect(found.map { $0.objectValue?["user_id"] } == [.string(id)])
        #expect(none.status == .ok)
        #expect(none.text == "[]")
    }

    @Test func aRawBarNamesTheSameUser() async throws {
        let harness = try await TenantHarness()
        let (id, read) = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let id = try await harness.createManagedUser(http, token: token)
            return (id, try await http.send(.get, "/api/v2/users/" + id, bearer: token))
        }
        #expect(read.status == .ok, "\(read.text)")
        #expect(read.json["user_id"] == .string(id))
    }

    @Test func aUserNeedsNoPasswordAndMayGoByUsername() async throws {
        var configuration = TenantConfiguration()
        configuration.identifiers.email.signup = .optional
        let harness = try await TenantHarness(configuration: configuration)
        let created = try await harness.router { http in
            try await http.send(
                .post, "/api/v2/users", raw: #"{"connection":"\#(Self.connection)","username":"ada_l"}"#,
                bearer: try await harness.managementToken(http))
        }
        #expect(created.status == .created, "\(created.text)")
        #expect(created.json["username"] == .string("ada_l"))
        #expect(created.json["email"] == nil)
    }

    @Test func aTakenIdentifierIsAConflict() async throws {
        let harness = try await TenantHarness()
        let (seeded, signedUp) = try await harness.router { http in
            let token = try await harness.managementToken(http)
            _ = try await harness.createManagedUser(http, token: token)
            _ = try await harness.signUp(http, email: "bob@example.com")
            return (
                try await http.send(
                    .post, "/api/v2/users", raw: #"{"connection":"\#(Self.connection)","email":"ADA@example.com"}"#,
                    bearer: token),
                try await http.send(
                    .post, "/api/v2/users", raw: #"{"connection":"\#(Self.connection)","email":"bob@example.com"}"#,
                    bearer: token)
            )
        }
        expectManagementError(seeded, .conflict, "auth0_idp_error")
        expectManagementError(signedUp, .conflict, "auth0_idp_error")
    }

    @Test(arguments: [
        #"{"email":"ada@example.com"}"#,
        #"{"connection":"Other","email":"ada@example.com"}"#,
        #"{"connection":"Username-Password-Authentication"}"#,
        #"{"connection":"Username-Password-Authentication","email":"not an email"}"#,
        #"{"connection":"Username-Password-Authentication","email":"ada@example.com","password":"hunter2"}"#,
        #"{"connection":"Username-Password-Authentication","email":"ada@example.com","app_metadata":{}}"#,
        #"{"connection":"Username-Password-Authentication","email":"ada@example.com","email_verified":"yes"}"#,
        #"{"connection":"Username-Password-Authentication","email":"#,
        #"[]"#,
        "",
    ])
    func aBadUserBodyIsInvalidBody(body: String) async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.post, "/api/v2/users", raw: body, bearer: try await harness.managementToken(http))
        }
        expectManagementError(result, .badRequest, "invalid_body")
    }

    @Test func anUnknownUserIsInexistent() async throws {
        let harness = try await TenantHarness()
        let (read, methods, posted) = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let path = "/api/v2/users/auth0%7C000000000000000000000000"
            let passkey = try await MadePasskey.make(on: harness.device)
            return (
                try await http.send(.get, path, bearer: token),
                try await http.send(.get, path + "/authentication-methods", bearer: token),
                try await harness.postPasskey(
                    http, token: token, userID: "auth0|000000000000000000000000", passkey)
            )
        }
        expectManagementError(read, .notFound, "inexistent_user")
        #expect(read.json["message"] == .string("The user does not exist."))
        expectManagementError(methods, .notFound, "inexistent_user")
        expectManagementError(posted, .notFound, "inexistent_user")
    }

    @Test func usersByEmailNeedsAnEmail() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.get, "/api/v2/users-by-email", bearer: try await harness.managementToken(http))
        }
        expectManagementError(result, .badRequest, "invalid_query_string")
    }

    // MARK: Tokens and scopes

    @Test func eachRouteNeedsItsScope() async throws {
        let harness = try await TenantHarness()
        let routes: [(HTTPRequest.Method, String, String?, String)] = [
            (.post, "/api/v2/users", #"{"connection":"x"}"#, "create:users"),
            (.get, "/api/v2/users/auth0%7Cx", nil, "read:users"),
            (.get, "/api/v2/users-by-email?email=a%40b.c", nil, "read:users"),
            (.get, "/api/v2/users?q=email%3A%22a%40b.c%22&search_engine=v3", nil, "read:users"),
            (.delete, "/api/v2/users/auth0%7Cx", nil, "delete:users"),
            (.get, "/api/v2/users/auth0%7Cx/authentication-methods", nil, "read:authentication_methods"),
            (.post, "/api/v2/users/auth0%7Cx/authentication-methods", "{}", "create:authentication_methods"),
            (
                .delete, "/api/v2/users/auth0%7Cx/authentication-methods/passkey%7Cdev_1", nil,
                "delete:authentication_methods"
            ),
        ]
        let results = try await harness.router { http in
            let scopes = Set(PasskeyTenant.managementScopes)
            var results: [(String, HTTPResult)] = []
            for (method, path, body, scope) in routes {
                let others = try await harness.managementToken(
                    http, scope: scopes.subtracting([scope]).sorted().joined(separator: " "))
                results.append((scope, try await http.send(method, path, raw: body, bearer: others)))
            }
            return results
        }
        for (scope, result) in results {
            expectManagementError(result, .forbidden, "insufficient_scope")
            #expect(result.json["message"] == .string("Insufficient scope, expected any of: \(scope)"))
        }
    }

    @Test func aMissingBadOrExpiredTokenIsUnauthorized() async throws {
        let harness = try await TenantHarness()
        let (missing, garbage, expired) = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let missing = try await http.send(.get, "/api/v2/users-by-email?email=a%40b.c", contentType: nil)
            let garbage = try await http.send(.get, "/api/v2/users-by-email?email=a%40b.c", bearer: "e30.e30.e30")
            harness.clock.advance(by: 86_401)
            return (missing, garbage, try await http.send(.get, "/api/v2/users-by-email?email=a%40b.c", bearer: token))
        }
        for result in [missing, garbage, expired] {
            expectManagementError(result, .unauthorized, "invalid_token")
        }
    }

    @Test func aUsersTokenIsRefusedAtTheManagementAPI() async throws {
        var configuration = TenantConfiguration()
        // Even an API configured with the management audience gives users no way in.
        configuration.apiAudience = TenantHarness.managementAudience
        let harness = try await TenantHarness(configuration: configuration)
        let (plain, withAudience) = try await harness.router { http in
            let plain = try await harness.signUp(http).accessToken.text
            let audience = try await harness.logIn(
                http, scope: "openid read:events", audience: TenantHarness.managementAudience
            ).accessToken.text
            return (
                try await http.send(.get, "/api/v2/users-by-email?email=ada%40example.com", bearer: plain),
                try await http.send(.get, "/api/v2/users-by-email?email=ada%40example.com", bearer: audience)
            )
        }
        expectManagementError(plain, .unauthorized, "invalid_token")
        expectManagementError(withAudience, .unauthorized, "invalid_token")
    }

    @Test func aManagementTokenIsRefusedElsewhere() async throws {
        let harness = try await TenantHarness()
        let results = try await harness.router { http in
            let token = try await harness.managementToken(http)
            return [
                try await http.send(.get, "/me/v1/authentication-methods", bearer: token),
                try await http.send(.get, "/userinfo", bearer: token),
                try await http.send(.get, "/api/events", bearer: token),
            ]
        }
        for result in results {
            #expect(result.status == .unauthorized, "\(result.text)")
            #expect(result.errorCode == "invalid_token")
        }
    }

    @Test func anUnknownRouteAnswersInTheManagementShape() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.get, "/api/v2/clients", bearer: try await harness.managementToken(http))
        }
        expectManagementError(result, .notFound, "not_found")
    }
}
