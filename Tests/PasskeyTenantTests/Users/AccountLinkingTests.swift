import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// Account linking (issue 41; Auth0 "User Account Linking"): `POST /api/v2/users/{id}/identities`
/// with the other account's ID token or its provider and ID, `DELETE …/identities/{provider}/{id}`
/// to unlink; a linked user logs in as its primary with either identity, natively and on the login
/// page, and each refusal of the issue. On SQLite, or PostgreSQL with `PASSKEY_TEST_POSTGRES`.
@Suite struct AccountLinkingTests {
    @Test func aLinkedUserLogsInAsThePrimaryWithEitherPasskey() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        try await harness.router { http in
            let ada = try await harness.managementUser(http, email: "ada@example.com")
            let bob = try await harness.managementUser(http, email: "bob@example.com")
            let linked = try await harness.userRequest(
                http, .post, ada.id, "/identities",
                body: #"{"link_with":"\#(try #require(bob.tokens.idToken).text)"}"#, token: ada.tokens.bearer)
            #expect(linked.status == .created, "\(linked.text)")
            let identities = try linked.decode([UserIdentity].self)
            #expect(identities.map(\.provider) == ["auth0", "auth0"])
            #expect(identities.map { "auth0|" + $0.userID } == [ada.id, bob.id])
            #expect(identities[0].profileData == nil)
            #expect(identities[1].profileData?.email == "bob@example.com")
            #expect(identities[1].profileData?.emailVerified == false)

            // Either passkey logs the primary in, natively and on the login page.
            for device in [ada.device, bob.device] {
                let tokens = try await harness.logIn(http, device: device)
                #expect(try jwtClaims(tokens.idToken)["sub"] == .string(ada.id))
                #expect(try jwtClaims(tokens.accessToken)["sub"] == .string(ada.id))
                let userinfo = try await http.send(.get, "/userinfo", bearer: tokens.bearer)
                #expect(userinfo.json["email"] == .string("ada@example.com"))
                let refreshed = try await harness.refresh(http, try #require(tokens.refreshToken))
                #expect(
                    try jwtClaims(Secret(try #require(refreshed.json["id_token"]?.stringValue)))["sub"]
                        == .string(ada.id))
                let page = try flow.page(try await flow.authorize(http))
                let (code, _) = try flow.codeAndSession(try await flow.logIn(http, page, device: device))
                let exchanged = try await flow.exchange(http, code: code)
                let idToken = Secret(try #require(exchanged.json["id_token"]?.stringValue))
                #expect(try jwtClaims(idToken)["sub"] == .string(ada.id))
            }

            // The secondary is no user of its own any more.
            let management = try await harness.managementToken(http)
            let gone = try await harness.userRequest(http, .get, bob.id, token: management)
            expectManagementError(gone, .notFound, "inexistent_user")
            let listed = try await http.send(.get, "/api/v2/users", bearer: management)
            #expect(!listed.text.contains(#""user_id":"\#(bob.id)""#))
            let primary = try await harness.userRequest(http, .get, ada.id, token: management)
            #expect(primary.json["identities"]?.arrayValue?.count == 2)

            // Unlinking makes it a user again, who logs in as itself.
            let bobIdentity = String(bob.id.dropFirst("auth0|".count))
            let unlinked = try await harness.userRequest(
                http, .delete, ada.id, "/identities/auth0/\(bobIdentity)", token: ada.tokens.bearer)
            #expect(unlinked.status == .ok, "\(unlinked.text)")
            #expect(try unlinked.decode([UserIdentity].self).count == 1)
            let alone = try await harness.logIn(http, device: bob.device)
            #expect(try jwtClaims(alone.idToken)["sub"] == .string(bob.id))
            let again = try await harness.userRequest(http, .get, bob.id, token: management)
            #expect(again.status == .ok)
        }
    }

    @Test func theMachineClientLinksByProviderAndDeletingThePrimaryDeletesTheSecondary() async throws {
        let harness = try await TenantHarness()
        try await harness.router { http in
            let token = try await harness.managementToken(http)
            let ada = try await harness.createManagedUser(http, token: token)
            let bob = try await harness.createManagedUser(http, token: token, email: "bob@example.com")
            let bobIdentity = String(bob.dropFirst("auth0|".count))
            let linked = try await harness.userRequest(
                http, .post, ada, "/identities",
                body:
                    #"{"provider":"auth0","user_id":"\#(bobIdentity)","connection_id":"Username-Password-Authentication"}"#,
                token: token)
            #expect(linked.status == .created, "\(linked.text)")
            #expect(try linked.decode([UserIdentity].self).map(\.userID).last == bobIdentity)
            let own = try await harness.userRequest(
                http, .delete, ada, "/identities/auth0/\(String(ada.dropFirst("auth0|".count)))", token: token)
            expectManagementError(own, .badRequest, "invalid_body")
            let deleted = try await http.send(.delete, "/api/v2/users/\(TenantHarness.pathEncoded(ada))", bearer: token)
            #expect(deleted.status == .noContent)
            let relink = try await harness.userRequest(
                http, .post, ada, "/identities", body: #"{"provider":"auth0","user_id":"\#(bobIdentity)"}"#,
                token: token)
            expectManagementError(relink, .notFound, "inexistent_user")
            let search = try await http.send(.get, "/api/v2/users-by-email?email=bob%40example.com", bearer: token)
            #expect(search.text == "[]")
        }
    }

    @Test func linkingIsRefusedAsTheIssueLists() async throws {
        let base = try await TenantHarness(configuration: PasskeyApplicationsTests.configuration)
        let foreign = try await TenantHarness(signingKey: nil)
        let foreignToken = try await foreign.router { http in
            try #require(try await foreign.signUp(http, email: "eve@example.com").idToken).text
        }
        let results = try await base.router { http in
            let ada = try await base.managementUser(http, email: "ada@example.com")
            let bob = try await base.managementUser(http, email: "bob@example.com")
            let carol = try await base.managementUser(http, email: "carol@example.com")
            let other = base.acting(as: base.tenant.applications[0])
            let dave = try await other.signUp(http, email: "dave@example.com", device: TenantHarness.device())
            func link(_ token: String, as user: String = ada.id, bearer: String = ada.tokens.bearer) async throws
                -> HTTPResult
            {
                try await base.userRequest(
                    http, .post, user, "/identities", body: #"{"link_with":"\#(token)"}"#, token: bearer)
            }
            let bobToken = try #require(bob.tokens.idToken).text
            var results: [String: HTTPResult] = [
                "foreign": try await link(foreignToken),
                "itself": try await link(try #require(ada.tokens.idToken).text),
                "another client": try await link(try #require(dave.idToken).text),
                "an access token": try await link(bob.tokens.bearer),
                "another user's token": try await link(bobToken, as: carol.id),
                "provider with a user token": try await base.userRequest(
                    http, .post, ada.id, "/identities", body: #"{"provider":"auth0","user_id":"x"}"#,
                    token: ada.tokens.bearer),
            ]
            let first = try await link(bobToken)
            #expect(first.status == .created, "\(first.text)")
            results["already linked"] = try await link(bobToken, as: carol.id, bearer: carol.tokens.bearer)
            base.clock.advance(by: 36_001)
            results["expired"] = try await link(try #require(carol.tokens.idToken).text)
            return results
        }
        for name in ["foreign", "itself", "another client", "an access token", "expired"] {
            expectManagementError(try #require(results[name]), .badRequest, "invalid_body")
        }
        for name in ["another user's token", "provider with a user token"] {
            expectManagementError(try #require(results[name]), .forbidden, "insufficient_scope")
        }
        expectManagementError(try #require(results["already linked"]), .conflict, "conflict")
    }
}
