import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// A user seeded through the Management API logs in natively with no signup ceremony
/// (auth0-passkey-api.md §15.3, §2, §3): the passkey is made on a device, posted with its user
/// handle, and answers `/passkey/challenge` + the webauthn grant; deleting the user ends that.
@Suite struct ManagementSeedLoginTests {
    @Test func aSeededPasskeyLogsInOverLoopback() async throws {
        let harness = try await TenantHarness()
        let device = TenantHarness.device()
        try await TestTenant.serve(harness.tenant) { http, _ in
            let token = try await harness.managementToken(http)
            let userID = try await harness.createManagedUser(http, token: token)
            let passkey = try await MadePasskey.make(on: device)
            let posted = try await harness.postPasskey(http, token: token, userID: userID, passkey)
            #expect(posted.status == .created, "\(posted.text)")
            let tokens = try await harness.logIn(http, device: device)
            #expect(try jwtClaims(tokens.idToken)["sub"] == .string(userID))
            let userinfo = try await http.send(.get, "/userinfo", bearer: tokens.accessToken.text)
            #expect(userinfo.json["email"] == .string("ada@example.com"))
            let methods = try await http.send(
                .get, "/api/v2/users/\(TenantHarness.pathEncoded(userID))/authentication-methods", bearer: token)
            #expect(methods.text.contains(#""last_auth_at":"#))
        }
    }

    @Test func anEdDSAPasskeyLogsInToo() async throws {
        let harness = try await TenantHarness()
        let device = TenantHarness.device()
        let result = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let userID = try await harness.createManagedUser(http, token: token)
            let posted = try await harness.postPasskey(
                http, token: token, userID: userID, try await MadePasskey.make(on: device, algorithms: [.eddsa]))
            guard posted.status == .created else { throw HarnessError(posted) }
            return try await harness.logIn(http, device: device)
        }
        #expect(result.idToken != nil)
    }

    /// A posted field that disagrees with the authenticator: another user handle, or
    /// `single_device` for a backup-eligible passkey (BE never changes, WebAuthn L3 §6.1.3).
    static let disagreements: [[String: JSONValue?]] = [
        ["user_handle": .string(Base64URL.encode(SecureRandom.bytes(32)))],
        ["credential_device_type": .string("single_device")],
    ]

    @Test(arguments: disagreements)
    func aPasskeyPostedWithOtherFactsDoesNotLogIn(changes: [String: JSONValue?]) async throws {
        let harness = try await TenantHarness()
        let device = TenantHarness.device()
        let result = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let userID = try await harness.createManagedUser(http, token: token)
            let passkey = try await MadePasskey.make(on: device)
            #expect(passkey.backupEligible)
            let posted = try await harness.postPasskey(http, token: token, userID: userID, passkey, changes)
            guard posted.status == .created else { throw HarnessError(posted) }
            let challenge = try await harness.loginChallenge(http)
            let assertion = try await device.get(challenge.options, origin: TenantHarness.origin)
            return try await harness.grant(http, session: challenge.authSession, response: PasskeyResponse(assertion))
        }
        expectRefused(result, "invalid_grant", status: .badRequest)
    }

    @Test func aDeletedUserNoLongerLogsIn() async throws {
        let harness = try await TenantHarness()
        let device = TenantHarness.device()
        let (deleted, read, login, refresh, again) = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let userID = try await harness.createManagedUser(http, token: token)
            let posted = try await harness.postPasskey(
                http, token: token, userID: userID, try await MadePasskey.make(on: device))
            guard posted.status == .created else { throw HarnessError(posted) }
            let tokens = try await harness.logIn(http, device: device)
            let path = "/api/v2/users/" + TenantHarness.pathEncoded(userID)
            let deleted = try await http.send(.delete, path, contentType: nil, bearer: token)
            let challenge = try await harness.loginChallenge(http)
            let assertion = try await device.get(challenge.options, origin: TenantHarness.origin)
            return (
                deleted, try await http.send(.get, path, bearer: token),
                try await harness.grant(http, session: challenge.authSession, response: PasskeyResponse(assertion)),
                try await harness.refresh(http, try #require(tokens.refreshToken)),
                try await http.send(.delete, path, contentType: nil, bearer: token)
            )
        }
        #expect(deleted.status == .noContent)
        #expect(read.status == .notFound)
        #expect(read.json["errorCode"] == .string("inexistent_user"))
        expectRefused(login, "invalid_grant", status: .badRequest)
        // Auth0 refuses a refresh token of a deleted user 403, not 400 (issue 41).
        expectRefused(refresh, "invalid_grant", status: .forbidden)
        #expect(again.status == .noContent)
    }

    @Test func aSignedUpUserCanGetASeededPasskeyToo() async throws {
        let harness = try await TenantHarness()
        let laptop = TenantHarness.device()
        let result = try await harness.router { http in
            _ = try await harness.signUp(http)
            let token = try await harness.managementToken(http)
            let users = try await http.send(.get, "/api/v2/users-by-email?email=ada%40example.com", bearer: token)
            let userID = try #require(try users.decode([JSONValue].self).first?.objectValue?["user_id"]?.stringValue)
            let posted = try await harness.postPasskey(
                http, token: token, userID: userID, try await MadePasskey.make(on: laptop))
            guard posted.status == .created else { throw HarnessError(posted) }
            let list = try await http.send(
                .get, "/api/v2/users/\(TenantHarness.pathEncoded(userID))/authentication-methods", bearer: token)
            #expect(try list.decode([JSONValue].self).count == 2)
            return try await harness.logIn(http, device: laptop)
        }
        #expect(result.idToken != nil)
    }

    /// The passkey's own user handle and `email_verified` (migration v4) live in the file too.
    @Test func aSeededPasskeySurvivesARestart() async throws {
        let directory = try TemporaryDirectory(prefix: "tenant")
        defer { directory.remove() }
        let path = directory.appending("tenant.sqlite")
        let first = try await TenantHarness(database: path)
        let userID = try await first.router { http in
            let token = try await first.managementToken(http)
            let created = try await http.send(
                .post, "/api/v2/users",
                raw:
                    #"{"connection":"Username-Password-Authentication","email":"ada@example.com","email_verified":true}"#,
                bearer: token)
            let userID = try #require(created.json["user_id"]?.stringValue)
            let posted = try await first.postPasskey(
                http, token: token, userID: userID, try await MadePasskey.make(on: first.device))
            guard posted.status == .created else { throw HarnessError(posted) }
            return userID
        }
        let clock = TestClock()
        let second = try await PasskeyTenant(database: path, clock: clock.tenantClock)
        #expect(second.managementClientID == first.tenant.managementClientID)
        let reopened = TenantHarness(tenant: second, clock: clock, device: first.device)
        let (login, user) = try await reopened.router { http in
            let login = try await reopened.logIn(http)
            let token = try await reopened.managementToken(http)
            return (
                login, try await http.send(.get, "/api/v2/users/" + TenantHarness.pathEncoded(userID), bearer: token)
            )
        }
        #expect(try jwtClaims(login.idToken)["sub"] == .string(userID))
        #expect(try jwtClaims(login.idToken)["email_verified"] == .bool(true))
        #expect(user.json["email_verified"] == .bool(true))
    }
}
