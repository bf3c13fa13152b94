import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// My Account passkey enrollment and the authentication-methods list (auth0-passkey-api.md §5,
/// §12.6).
@Suite struct MyAccountTests {
    static let scopes =
        "openid offline_access create:me:authentication_methods read:me:authentication_methods "
        + "delete:me:authentication_methods"

    /// A signed-up user's My Account access token.
    private func myAccountToken(
        _ harness: TenantHarness, _ http: any TestClientProtocol, email: String = "ada@example.com",
        device: WebAuthnClient? = nil
    ) async throws -> String {
        try await harness.signUp(
            http, email: email, device: device, scope: Self.scopes, audience: "https://localhost/me/"
        )
        .accessToken.text
    }

    /// Opens an enrollment with `token` and verifies `device`'s passkey for it at `path` with
    /// `verifier` (the same token unless given): the verify answer as it came.
    private func enroll(
        _ http: any TestClientProtocol, token: String, device: WebAuthnClient = TenantHarness.device(),
        path: String = "/me/v1/authentication-methods/passkey%7Cnew/verify", verifier: String? = nil
    ) async throws -> HTTPResult {
        let options = try await http.send(
            .post, "/me/v1/authentication-methods", json: EnrollmentChallengeRequest(), bearer: token
        ).decode(CreationChallengeResponse.self)
        let registration = try await device.create(options.options, origin: TenantHarness.origin)
        return try await http.send(
            .post, path,
            json: EnrollmentVerifyRequest(
                authSession: options.authSession, authnResponse: PasskeyResponse(registration)),
            bearer: verifier ?? token)
    }

    @Test func enrollASecondPasskeyThenLogInWithIt() async throws {
        let harness = try await TenantHarness()
        let laptop = TenantHarness.device(.securityKey)
        let (challenge, verified, list, login) = try await harness.router { http in
            let token = try await myAccountToken(harness, http)
            let challenge = try await http.send(
                .post, "/me/v1/authentication-methods", raw: #"{"type":"passkey"}"#, bearer: token)
            let options = try challenge.decode(CreationChallengeResponse.self)
            let registration = try await laptop.create(options.options, origin: TenantHarness.origin)
            let verified = try await http.send(
                .post, "/me/v1/authentication-methods/passkey%7Cnew/verify",
                json: EnrollmentVerifyRequest(
                    authSession: options.authSession, authnResponse: PasskeyResponse(registration)),
                bearer: token, headers: [.userAgent: "PasskeyTests/1.0"])
            let list = try await http.send(.get, "/me/v1/authentication-methods", bearer: token)
            return (challenge, verified, list, try await harness.logIn(http, device: laptop))
        }
        #expect(challenge.status == .accepted)
        #expect(challenge.headers[.location] == "https://localhost/me/v1/authentication-methods/passkey%7Cnew")
        #expect(verified.status == .created, "\(verified.text)")
        let method = verified.json
        #expect(method["type"] == .string("passkey"))
        #expect(method["id"]?.stringValue?.hasPrefix("passkey|dev_") == true)
        #expect(method["credential_device_type"] == .string("single_device"))
        #expect(method["credential_backed_up"] == .bool(false))
        #expect(method["relying_party_id"] == .string("localhost"))
        #expect(method["user_agent"] == .string("PasskeyTests/1.0"))
        #expect(method["aaguid"]?.stringValue?.count == 36)
        let publicKey = try #require(method["public_key"]?.stringValue)
        #expect(publicKey.count % 4 == 0)
        #expect(Data(base64Encoded: publicKey) != nil)
        let createdAt = try #require(method["created_at"]?.stringValue)
        #expect(createdAt.contains(".") && createdAt.hasSuffix("Z"))
        #expect(list.json["authentication_methods"]?.arrayValue?.count == 2)
        #expect(login.idToken != nil)
    }

    @Test func theVerifyPathTakesARawBar() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            let token = try await myAccountToken(harness, http)
            return try await enroll(http, token: token, path: "/me/v1/authentication-methods/passkey|new/verify")
        }
        #expect(result.status == .created, "\(result.text)")
    }

    /// `use_exclude_credentials` lists the user's passkeys, with the transports their clients
    /// reported (§19.3), so the device that holds one refuses to make a second.
    @Test func excludeCredentialsListThePasskeysTheUserHas() async throws {
        let phone = WebAuthnClient(authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore()))
        let harness = try await TenantHarness()
        let (plain, excluding) = try await harness.router { http in
            let token = try await myAccountToken(harness, http, device: phone)
            let plain = try await http.send(
                .post, "/me/v1/authentication-methods", json: EnrollmentChallengeRequest(), bearer: token
            ).decode(CreationChallengeResponse.self)
            let excluding = try await http.send(
                .post, "/me/v1/authentication-methods", json: EnrollmentChallengeRequest(useExcludeCredentials: true),
                bearer: token
            ).decode(CreationChallengeResponse.self)
            return (plain, excluding)
        }
        #expect(plain.options.excludeCredentials == nil)
        let listed = try #require(excluding.options.excludeCredentials)
        #expect(listed.count == 1)
        #expect(listed.first?.transports?.isEmpty == false)
        await #expect(throws: WebAuthnClientError(.invalidState, "")) {
            try await phone.create(excluding.options, origin: TenantHarness.origin)
        }
    }

    @Test func theSamePasskeyCannotBeEnrolledTwice() async throws {
        let seed = try Seed(hex: String(repeating: "42", count: 32))
        let first = WebAuthnClient(authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), seed: seed))
        let twin = WebAuthnClient(authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), seed: seed))
        let harness = try await TenantHarness()
        let (result, list) = try await harness.router { http in
            let token = try await myAccountToken(harness, http, device: first)
            let result = try await enroll(http, token: token, device: twin)
            return (result, try await http.send(.get, "/me/v1/authentication-methods", bearer: token))
        }
        #expect(result.status == .badRequest)
        #expect(result.json["detail"]?.stringValue?.contains("registered already") == true)
        #expect(result.json["status"] == .number(400))
        #expect(result.json["title"] == .string("Bad Request"))
        #expect(list.json["authentication_methods"]?.arrayValue?.count == 1)
    }

    @Test func anotherUsersEnrollmentSessionIsRefused() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            let alice = try await myAccountToken(harness, http, email: "alice@example.com")
            let bob = try await myAccountToken(harness, http, email: "bob@example.com", device: TenantHarness.device())
            return try await enroll(http, token: alice, verifier: bob)
        }
        expectRefused(result, "invalid_grant", status: .badRequest)
    }

    @Test func myAccountRefusalsUseTheProblemShape() async throws {
        let harness = try await TenantHarness()
        let (noToken, wrongAudience, noScope, badType, unknownMethod, badBody) = try await harness.router { http in
            let userinfo = try await harness.signUp(http).accessToken.text
            let readOnly = try await harness.logIn(
                http, scope: "openid read:me:authentication_methods", audience: "https://localhost/me")
            let creator = try await myAccountToken(
                harness, http, email: "b@example.com", device: TenantHarness.device())
            return (
                try await http.send(.post, "/me/v1/authentication-methods", raw: #"{"type":"passkey"}"#),
                try await http.send(
                    .post, "/me/v1/authentication-methods", raw: #"{"type":"passkey"}"#, bearer: userinfo),
                try await http.send(
                    .post, "/me/v1/authentication-methods", raw: #"{"type":"passkey"}"#,
                    bearer: readOnly.accessToken.text),
                try await http.send(
                    .post, "/me/v1/authentication-methods", raw: #"{"type":"totp"}"#, bearer: creator),
                try await http.send(
                    .delete, "/me/v1/authentication-methods/passkey%7Cnope", bearer: readOnly.accessToken.text),
                try await http.send(.post, "/me/v1/authentication-methods", raw: "{", bearer: creator)
            )
        }
        #expect(noToken.status == .unauthorized)
        #expect(noToken.json["type"] == .string("invalid_token"))
        #expect(noToken.json["status"] == .number(401))
        #expect(wrongAudience.status == .unauthorized)
        #expect(noScope.status == .forbidden)
        #expect(noScope.json["type"] == .string("insufficient_scope"))
        #expect(badType.status == .badRequest)
        #expect(unknownMethod.status == .forbidden)
        #expect(badBody.status == .badRequest)
        #expect(badBody.json["detail"] != nil)
    }

    @Test func theTokenIsCheckedBeforeTheBody() async throws {
        let harness = try await TenantHarness()
        let (unauthorized, oversize) = try await harness.router { http in
            let token = try await myAccountToken(harness, http)
            let padding = String(repeating: "a", count: 70 * 1024)
            return (
                try await http.send(.post, "/me/v1/authentication-methods/passkey%7Cnew/verify", raw: "{"),
                try await http.send(
                    .post, "/me/v1/authentication-methods", raw: #"{"type":"\#(padding)"}"#, bearer: token)
            )
        }
        #expect(unauthorized.status == .unauthorized)
        #expect(oversize.status == .contentTooLarge)
        #expect(oversize.json["type"] == .string("payload_too_large"))
    }

    @Test func getAndDeleteAMethod() async throws {
        let harness = try await TenantHarness()
        let (one, deleted, gone, list, login) = try await harness.router { http in
            let token = try await myAccountToken(harness, http)
            let list = try await http.send(.get, "/me/v1/authentication-methods?type=passkey", bearer: token)
            let id = try #require(
                list.json["authentication_methods"]?.arrayValue?.first?.objectValue?["id"]?.stringValue)
            let path = "/me/v1/authentication-methods/" + id.replacingOccurrences(of: "|", with: "%7C")
            let one = try await http.send(.get, path, bearer: token)
            let deleted = try await http.send(.delete, path, bearer: token)
            let gone = try await http.send(.get, path, bearer: token)
            let (session, response) = try await harness.loginResponse(http)
            let login = try await harness.grant(
                http, session: session, response: response)
            return (one, deleted, gone, list, login)
        }
        #expect(list.json["authentication_methods"]?.arrayValue?.count == 1)
        #expect(one.status == .ok)
        #expect(deleted.status == .noContent)
        #expect(gone.status == .notFound)
        #expect(login.errorCode == "invalid_grant")
    }
}
