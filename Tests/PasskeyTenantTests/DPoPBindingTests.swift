import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// Tokens bound to a DPoP key (auth0-passkey-api.md §16.4, §16.5; RFC 9449 §5–§7, §10): the token
/// endpoint binds, resource servers demand the key's proofs, refresh tokens and codes stay bound.
@Suite struct DPoPBindingTests {
    static let tokenURL = "https://localhost/oauth/token"

    /// §16.4's example: the thumbprint of its `x`, `y` is its `cnf.jkt`. The tests' thumbprint is
    /// the one the tenant's tokens must carry (``aProofBindsTheTokens()``).
    @Test func theThumbprintIsRFC7638() {
        #expect(
            DPoPProver.thumbprint(
                x: "SR0zPW_ewWYD_Sy-vuDxtuUWgBa1tkGUVVpOANmGdlI", y: "t1pMD3oXbUVQpAC2iFiljBdxOtpzAVSBsN1YM4lTTBA")
                == "QdWHki1c-2CjWk_Rqh2XgGurpjH4eu1VoOwHUV5KNHk")
    }

    @Test func aProofBindsTheTokens() async throws {
        let harness = try await TenantHarness()
        let prover = try DPoPProver()
        let result = try await harness.router { http in
            try await harness.dpopSignUp(http, proof: prover.proof("POST", Self.tokenURL, iat: harness.clock.now))
        }
        #expect(result.status == .ok)
        #expect(result.json["token_type"] == .string("DPoP"))
        let tokens = try result.decode(TokenResponse.self)
        #expect(try jwtClaims(tokens.accessToken)["cnf"] == .object(["jkt": .string(prover.thumbprint)]))
        #expect(tokens.refreshToken != nil)
    }

    @Test func withoutAProofTokensAreBearer() async throws {
        let harness = try await TenantHarness()
        let tokens = try await harness.router { http in try await harness.signUp(http) }
        #expect(tokens.tokenType == "Bearer")
        #expect(try jwtClaims(tokens.accessToken)["cnf"] == nil)
    }

    @Test func resourceServersAcceptTheBoundTokenWithAProof() async throws {
        let harness = try await TenantHarness()
        let prover = try DPoPProver()
        let api = "https://localhost/api/"
        let (userinfo, events, methods, factors) = try await harness.router { http in
            let now = harness.clock.now
            let login = try await harness.dpopSignUp(
                http, proof: prover.proof("POST", Self.tokenURL, iat: now),
                scope: "openid profile email offline_access read:events", audience: api
            ).decode(TokenResponse.self)
            let account = try await harness.dpopLogIn(
                http, proof: prover.proof("POST", Self.tokenURL, iat: now),
                scope: "openid read:me:authentication_methods read:me:factors", audience: "https://localhost/me/"
            ).decode(TokenResponse.self)
            let token = login.accessToken.text
            let accountToken = account.accessToken.text
            return (
                try await http.call(
                    "/userinfo", token: token,
                    proof: prover.proof("GET", "https://localhost/userinfo", iat: now, accessToken: token)),
                try await http.call(
                    "/api/events", token: token,
                    proof: prover.proof("GET", "https://localhost/api/events", iat: now, accessToken: token)),
                try await http.call(
                    "/me/v1/authentication-methods?type=passkey", token: accountToken,
                    proof: prover.proof(
                        "GET", "https://localhost/me/v1/authentication-methods", iat: now, accessToken: accountToken)),
                try await http.call(
                    "/me/v1/factors", token: accountToken,
                    proof: prover.proof("GET", "https://localhost/me/v1/factors", iat: now, accessToken: accountToken))
            )
        }
        #expect(userinfo.status == .ok)
        #expect(userinfo.json["email"] == .string("ada@example.com"))
        #expect(events.status == .ok)
        #expect(events.json["events"]?.arrayValue?.isEmpty == false)
        #expect(methods.status == .ok)
        #expect(factors.status == .ok)
    }
}

extension TenantHarness {
    /// Signs a new user up with a `DPoP` proof at the token endpoint; the answer as it came.
    func dpopSignUp(
        _ http: any TestClientProtocol, proof: String?, email: String = "ada@example.com",
        scope: String = "openid profile email offline_access", audience: String? = nil
    ) async throws -> HTTPResult {
        let challenge = try await signupChallenge(http, email: email)
        let registration = try await device.create(challenge.options, origin: Self.origin)
        return try await dpopGrant(
            http, proof: proof,
            TokenRequest(
                grantType: TokenRequest.webAuthnGrant, clientID: clientID, authSession: challenge.authSession,
                authnResponse: PasskeyResponse(registration), scope: scope, audience: audience))
    }

    /// Logs in with the harness's passkey and a `DPoP` proof; the answer as it came.
    func dpopLogIn(
        _ http: any TestClientProtocol, proof: String?, scope: String = "openid profile email offline_access",
        audience: String? = nil
    ) async throws -> HTTPResult {
        let challenge = try await loginChallenge(http)
        let assertion = try await device.get(challenge.options, origin: Self.origin)
        return try await dpopGrant(
            http, proof: proof,
            TokenRequest(
                grantType: TokenRequest.webAuthnGrant, clientID: clientID, authSession: challenge.authSession,
                authnResponse: PasskeyResponse(assertion), scope: scope, audience: audience))
    }

    /// `POST /oauth/token` with `body` and, when given, a `DPoP` proof.
    func dpopGrant(_ http: any TestClientProtocol, proof: String?, _ body: TokenRequest) async throws -> HTTPResult {
        var headers = HTTPFields()
        if let proof { headers[.dpop] = proof }
        return try await http.send(.post, "/oauth/token", json: body, headers: headers)
    }
}
