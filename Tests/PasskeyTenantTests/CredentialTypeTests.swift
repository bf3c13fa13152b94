import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// Every endpoint that takes a credential refuses one whose `type` is not `public-key`
/// (WebAuthn L3 §5.1; the relying party's check before §7.1 and §7.2): real ceremonies with the
/// software authenticator whose JSON is retyped on the way, as a hand-made client could send it.
@Suite struct CredentialTypeTests {
    /// One way to get the credential's `type` wrong.
    struct Retyping: Sendable, CustomTestStringConvertible {
        /// The `type` sent; `nil` leaves the member out.
        let type: String?

        static let all = [Self(type: "public-key-x"), Self(type: ""), Self(type: nil)]

        var testDescription: String { type.map { #"type "\#($0)""# } ?? "no type" }

        /// A response without the required member does not parse (`invalid_request`, as any
        /// malformed response); one of another type does not verify (`invalid_grant`).
        var expectedError: String { type == nil ? "invalid_request" : "invalid_grant" }

        /// What the refusal's description must name.
        var expectedDetail: String { type == nil ? "type: missing" : "(wrong-credential-type)" }

        /// `body` as JSON, with the credential under `member` retyped.
        func json(_ body: some Encodable, credentialAt member: String) throws -> String {
            var object = try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(body))
            var credential = try #require(object[member]?.objectValue)
            #expect(credential["type"] == .string("public-key"))
            credential["type"] = type.map(JSONValue.string)
            object[member] = .object(credential)
            return String(decoding: try JSONEncoder().encode(object), as: UTF8.self)
        }

        /// Expects `result` to be this retyping's 400.
        func expectRefusal(_ result: HTTPResult, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(result.status == .badRequest, "\(result.text)", sourceLocation: sourceLocation)
            #expect(result.errorCode == expectedError, "\(result.text)", sourceLocation: sourceLocation)
            #expect(result.text.contains(expectedDetail), "\(result.text)", sourceLocation: sourceLocation)
        }
    }

    /// The webauthn grant of a signup session; the refusal stores no user, so the same email
    /// signs up afterwards.
    @Test(arguments: Retyping.all)
    func theSignupGrantRefusesIt(_ retyping: Retyping) async throws {
        let harness = try await TenantHarness()
        let (refused, later) = try await harness.router { http in
            let (session, response) = try await harness.signupResponse(http)
            let body = try retyping.json(
                harness.webAuthnGrant(session: session, response: response, scope: "openid"),
                credentialAt: "authn_response")
            let refused = try await http.send(.post, "/oauth/token", raw: body)
            return (refused, try await harness.signUp(http, device: TenantHarness.device()))
        }
        retyping.expectRefusal(refused)
        #expect(later.idToken != nil)
    }

    /// The webauthn grant of a login session; the refusal changes nothing, so the same passkey
    /// logs in afterwards.
    @Test(arguments: Retyping.all)
    func theLoginGrantRefusesIt(_ retyping: Retyping) async throws {
        let harness = try await TenantHarness()
        let (refused, later) = try await harness.router { http in
            _ = try await harness.signUp(http)
            let (session, response) = try await harness.loginResponse(http)
            let body = try retyping.json(
                harness.webAuthnGrant(session: session, response: response, scope: "openid"),
                credentialAt: "authn_response")
            let refused = try await http.send(.post, "/oauth/token", raw: body)
            return (refused, try await harness.logIn(http))
        }
        retyping.expectRefusal(refused)
        #expect(later.idToken != nil)
    }

    /// A login refused for its type is a failed attempt of the passkey's user, as any other
    /// refused login: two of them lock the user out when the limit is two.
    @Test func aRefusedTypeCountsAsAFailedAttempt() async throws {
        var configuration = TenantConfiguration()
        configuration.attemptLimits = AttemptLimits(perUser: 2, perAddress: 1000, window: .seconds(60))
        let harness = try await TenantHarness(configuration: configuration)
        let (refused, locked) = try await harness.router { http in
            _ = try await harness.signUp(http)
            var refused: [HTTPResult] = []
            for type: PublicKeyCredentialType in ["public-key-x", ""] {
                let challenge = try await harness.loginChallenge(http)
                var assertion = try await harness.device.get(challenge.options, origin: TenantHarness.origin)
                assertion.type = type
                refused.append(
                    try await harness.grant(http, session: challenge.authSession, response: PasskeyResponse(assertion)))
            }
            let challenge = try await harness.loginChallenge(http)
            let assertion = try await harness.device.get(challenge.options, origin: TenantHarness.origin)
            return (
                refused,
                try await harness.grant(http, session: challenge.authSession, response: PasskeyResponse(assertion))
            )
        }
        #expect(refused.map(\.errorCode) == ["invalid_grant", "invalid_grant"])
        #expect(locked.status == .tooManyRequests, "\(locked.text)")
        #expect(locked.errorCode == "too_many_attempts")
    }

    /// My Account's enrollment verify answers in its problem shape and enrolls nothing.
    @Test(arguments: Retyping.all)
    func myAccountEnrollmentRefusesIt(_ retyping: Retyping) async throws {
        let harness = try await TenantHarness()
        let (refused, list) = try await harness.router { http in
            let token = try await harness.signUp(
                http, scope: "openid create:me:authentication_methods read:me:authentication_methods",
                audience: "https://localhost/me/"
            ).accessToken.text
            let challenge = try await http.send(
                .post, "/me/v1/authentication-methods", json: EnrollmentChallengeRequest(), bearer: token
            ).decode(CreationChallengeResponse.self)
            let registration = try await TenantHarness.device().create(
                challenge.options, origin: TenantHarness.origin)
            let body = try retyping.json(
                EnrollmentVerifyRequest(
                    authSession: challenge.authSession, authnResponse: PasskeyResponse(registration)),
                credentialAt: "authn_response")
            let refused = try await http.send(
                .post, "/me/v1/authentication-methods/passkey%7Cnew/verify", raw: body, bearer: token)
            return (refused, try await http.send(.get, "/me/v1/authentication-methods", bearer: token))
        }
        retyping.expectRefusal(refused)
        #expect(refused.json["status"] == .number(400))
        #expect(refused.json["detail"]?.stringValue?.contains(retyping.expectedDetail) == true)
        #expect(list.json["authentication_methods"]?.arrayValue?.count == 1)
    }

    /// The login page's verify, in both modes; the refusal leaves the transaction usable, and the
    /// right credential then succeeds.
    @Test(arguments: Retyping.all, ["signup", "login"])
    func thePageVerifyRefusesIt(_ retyping: Retyping, mode: String) async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let (refused, retried) = try await harness.router { http in
            if mode == "login" { _ = try await harness.signUp(http) }
            let page = try flow.page(try await flow.authorize(http))
            let options = try await flow.options(
                http, page, mode: mode, identifier: mode == "signup" ? "ada@example.com" : nil)
            let credential: PasskeyResponse =
                switch try options.decode(PageOptionsResponse.self) {
                case .create(let creation):
                    PasskeyResponse(try await harness.device.create(creation, origin: flow.origin))
                case .get(let request):
                    PasskeyResponse(try await harness.device.get(request, origin: flow.origin))
                }
            let body = try retyping.json(
                PageVerifyRequest(transaction: page.transaction, credential: credential), credentialAt: "credential")
            let refused = try await http.send(.post, "/u/passkey/verify", raw: body, headers: flow.pageHeaders(page))
            let retried =
                mode == "signup"
                ? try await flow.signUp(http, page, device: TenantHarness.device()) : try await flow.logIn(http, page)
            return (refused, retried)
        }
        retyping.expectRefusal(refused)
        #expect(retried.status == .ok, "\(retried.text)")
    }
}
