import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The Management API with a user's own token (issue 41; Auth0, "Get Management API Access Tokens
/// for Single-Page Applications"): `GET` and `PATCH /api/v2/users/{id}` for the token's own `sub`
/// with the current-user scopes, `user_metadata` merged one level deep; and the machine-to-machine
/// client's `PATCH` with `update:users`.
@Suite struct UserMetadataTests {
    @Test func aLoginForTheManagementAudienceGetsOnlyCurrentUserScopes() async throws {
        let harness = try await TenantHarness()
        let (tokens, list) = try await harness.router { http in
            let ada = try await harness.managementUser(
                http, email: "ada@example.com",
                scope: "openid read:users update:users read:current_user update:current_user_metadata")
            return (ada.tokens, try await http.send(.get, "/api/v2/users", bearer: ada.tokens.bearer))
        }
        #expect(tokens.scope == "openid read:current_user update:current_user_metadata")
        let claims = try jwtClaims(tokens.accessToken)
        #expect(claims["aud"]?.arrayValue?.first == .string(TenantHarness.managementAudience))
        // The machine-to-machine client's routes stay its own.
        expectManagementError(list, .unauthorized, "invalid_token")
    }

    @Test func aUserReadsAndMergesTheirOwnMetadata() async throws {
        let harness = try await TenantHarness()
        let results = try await harness.router { http in
            let ada = try await harness.managementUser(http, email: "ada@example.com")
            let token = ada.tokens.bearer
            var results = [try await harness.userRequest(http, .get, ada.id, token: token)]
            harness.clock.advance(by: 60)
            for body in [
                #"{"user_metadata":{"theme":"dark","prefs":{"a":1,"b":2},"plan":"free"}}"#,
                #"{"user_metadata":{"theme":null,"prefs":{"c":3}}}"#,
                #"{"user_metadata":{}}"#,
            ] {
                results.append(try await harness.userRequest(http, .patch, ada.id, body: body, token: token))
            }
            results.append(try await harness.userRequest(http, .get, ada.id, "?fields=user_id,email", token: token))
            // Metadata reaches no token: Auth0 adds it to tokens only through an Action.
            let again = try await harness.logIn(http, device: ada.device)
            #expect(try jwtClaims(again.idToken)["user_metadata"] == nil)
            #expect(try jwtClaims(again.idToken)["sub"] == .string(ada.id))
            return results
        }
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.text))")
        #expect(results[0].json["user_metadata"] == nil)
        #expect(results[0].json["email"] == .string("ada@example.com"))
        let first = results[1].json
        #expect(first["user_metadata"]?.objectValue?["theme"] == .string("dark"))
        #expect(first["updated_at"] != first["created_at"])
        let merged = try #require(results[2].json["user_metadata"]?.objectValue)
        #expect(merged["theme"] == nil)
        #expect(merged["plan"] == .string("free"))
        #expect(merged["prefs"] == .object(["c": .number(3)]))
        #expect(results[3].json["user_metadata"] == nil)
        #expect(Set(results[4].json.keys) == ["user_id", "email"])
    }

    @Test func aUserTokenIsRefusedForAnotherUserAndBeyondItsScopes() async throws {
        let harness = try await TenantHarness()
        let results = try await harness.router { http in
            let ada = try await harness.managementUser(http, email: "ada@example.com")
            let bob = try await harness.managementUser(
                http, email: "bob@example.com", scope: "openid read:current_user")
            let metadata = #"{"user_metadata":{"theme":"dark"}}"#
            return [
                try await harness.userRequest(http, .get, bob.id, token: ada.tokens.bearer),
                try await harness.userRequest(http, .patch, bob.id, body: metadata, token: ada.tokens.bearer),
                try await harness.userRequest(http, .patch, bob.id, body: metadata, token: bob.tokens.bearer),
                try await harness.userRequest(
                    http, .patch, ada.id, body: #"{"name":"Eve"}"#, token: ada.tokens.bearer),
                try await harness.userRequest(
                    http, .patch, ada.id, body: #"{"app_metadata":{"role":"admin"}}"#, token: ada.tokens.bearer),
            ]
        }
        for result in results {
            expectManagementError(result, .forbidden, "insufficient_scope")
        }
        #expect(results[0].json["message"] == .string("Insufficient scope, expected any of: read:users"))
        #expect(
            results[2].json["message"]
                == .string(
                    "Insufficient scope, expected any of: update:users,update:current_user_metadata,"
                        + "create:current_user_metadata"))
    }

    @Test(arguments: [
        #"{"user_metadata":"dark"}"#, #"{"user_metadata":[1]}"#, #"{"blocked":true}"#, #"{"email":7}"#,
        #"{"email":"not-an-email"}"#, #"{"connection":"elsewhere"}"#, #"{"email_verified":"yes"}"#,
    ])
    func aMalformedPatchIsInvalidBody(body: String) async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let id = try await harness.createManagedUser(http, token: token)
            return try await harness.userRequest(http, .patch, id, body: body, token: token)
        }
        expectManagementError(result, .badRequest, "invalid_body")
    }

    @Test func theMachineClientPatchesMetadataAndRootAttributes() async throws {
        let harness = try await TenantHarness()
        let (patched, taken, missing, read) = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let ada = try await harness.createManagedUser(http, token: token)
            _ = try await harness.createManagedUser(http, token: token, email: "bob@example.com")
            let patched = try await harness.userRequest(
                http, .patch, ada,
                body: #"""
                    {"user_metadata":{"theme":"dark"},"app_metadata":{"plan":"pro","roles":["a"]},
                     "name":"Ada Lovelace","nickname":"countess","email":"Ada.L@Example.com",
                     "username":"ada_l","connection":"Username-Password-Authentication"}
                    """#, token: token)
            let taken = try await harness.userRequest(
                http, .patch, ada, body: #"{"email":"bob@example.com"}"#, token: token)
            let missing = try await harness.userRequest(
                http, .patch, "auth0|000000000000000000000000", body: #"{"name":"x"}"#, token: token)
            let read = try await harness.managementToken(http, scope: "read:users")
            return (
                patched, taken, missing,
                try await harness.userRequest(http, .patch, ada, body: #"{"name":"x"}"#, token: read)
            )
        }
        #expect(patched.status == .ok, "\(patched.text)")
        #expect(patched.json["user_metadata"] == .object(["theme": .string("dark")]))
        #expect(patched.json["app_metadata"] == .object(["plan": .string("pro"), "roles": .array([.string("a")])]))
        #expect(patched.json["name"] == .string("Ada Lovelace"))
        #expect(patched.json["nickname"] == .string("countess"))
        #expect(patched.json["email"] == .string("ada.l@example.com"))
        #expect(patched.json["email_verified"] == .bool(false))
        #expect(patched.json["username"] == .string("ada_l"))
        expectManagementError(taken, .conflict, "auth0_idp_error")
        expectManagementError(missing, .notFound, "inexistent_user")
        expectManagementError(read, .forbidden, "insufficient_scope")
    }
}
