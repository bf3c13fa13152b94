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
        let prover = try await DPoPProver()
        let result = try await harness.router { http in
            try await harness.dpopSignUp(http, proof: prover.proof("POST", Self.tokenURL, iat: harness.clock.now))
        }
        #expect(result.status == .ok)
        #expect(result.json["token_type"] == .string("DPoP"))
        let tokens = try result.decode(TokenResponse.self)
        #expect(try jwtClaims(tokens.accessToken)["cnf"] == .object(["jkt": .string(prover.thumbprint)]))
        #expect(tokens.refreshToken != nil)
    }

    /// EdDSA (RFC 8037) and RS256 keys bind as ES256 ones do.
    @Test(arguments: ["EdDSA", "RS256"])
    func otherKeyTypesBindToo(_ alg: String) async throws {
        let harness = try await TenantHarness()
        let prover = try await alg == "EdDSA" ? DPoPProver.ed25519() : DPoPProver.rs256()
        let (signup, userinfo) = try await harness.router { http in
            let now = harness.clock.now
            let signup = try await harness.dpopSignUp(http, proof: prover.proof("POST", Self.tokenURL, iat: now))
            let token = try signup.decode(TokenResponse.self).accessToken.text
            return (
                signup,
                try await http.call(
                    "/userinfo", token: token,
                    proof: prover.proof("GET", "https://localhost/userinfo", iat: now, accessToken: token))
            )
        }
        #expect(signup.json["token_type"] == .string("DPoP"))
        let tokens = try signup.decode(TokenResponse.self)
        #expect(try jwtClaims(tokens.accessToken)["cnf"] == .object(["jkt": .string(prover.thumbprint)]))
        #expect(userinfo.status == .ok, "\(userinfo.text)")
    }

    @Test func withoutAProofTokensAreBearer() async throws {
        let harness = try await TenantHarness()
        let tokens = try await harness.router { http in try await harness.signUp(http) }
        #expect(tokens.tokenType == "Bearer")
        #expect(try jwtClaims(tokens.accessToken)["cnf"] == nil)
    }

    @Test func resourceServersAcceptTheBoundTokenWithAProof() async throws {
        let harness = try await TenantHarness()
        let prover = try await DPoPProver()
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

    /// The refusals at a resource server, each on its own (RFC 9449 §7.1, §7.2).
    @Test func resourceServersRefuseWhatIsNotAProofOfTheBoundKey() async throws {
        let harness = try await TenantHarness()
        let prover = try await DPoPProver()
        let other = try await DPoPProver()
        let url = "https://localhost/userinfo"
        let results = try await harness.router { http in
            let now = harness.clock.now
            let token = try await harness.dpopSignUp(http, proof: prover.proof("POST", Self.tokenURL, iat: now))
                .decode(TokenResponse.self).accessToken.text
            return [
                "as Bearer": try await http.call("/userinfo", scheme: "Bearer", token: token, proof: nil),
                "as Bearer with a proof": try await http.call(
                    "/userinfo", scheme: "Bearer", token: token,
                    proof: prover.proof("GET", url, iat: now, accessToken: token)),
                "without a proof": try await http.call("/userinfo", token: token, proof: nil),
                "another key": try await http.call(
                    "/userinfo", token: token, proof: other.proof("GET", url, iat: now, accessToken: token)),
                "without ath": try await http.call(
                    "/userinfo", token: token, proof: prover.proof("GET", url, iat: now)),
                "ath of another token": try await http.call(
                    "/userinfo", token: token, proof: prover.proof("GET", url, iat: now, accessToken: token + "x")),
                "another URL": try await http.call(
                    "/userinfo", token: token,
                    proof: prover.proof("GET", "https://localhost/api/events", iat: now, accessToken: token)),
                "another method": try await http.call(
                    "/userinfo", token: token, proof: prover.proof("POST", url, iat: now, accessToken: token)),
            ]
        }
        for (name, result) in results {
            #expect(result.status == .unauthorized, "\(name): \(result.text)")
            let challenge = result.headers[.wwwAuthenticate] ?? ""
            if name.hasPrefix("as Bearer") {
                #expect(result.errorCode == "invalid_token", "\(name)")
                #expect(challenge.hasPrefix("Bearer "), "\(name)")
            } else {
                #expect(result.errorCode == "invalid_dpop_proof", "\(name)")
                #expect(challenge.hasPrefix("DPoP "), "\(name)")
                #expect(challenge.contains(#"error="invalid_dpop_proof""#), "\(name)")
                #expect(challenge.contains(#"algs="ES256 EdDSA RS256""#), "\(name)")
            }
        }
    }

    /// A Bearer token still works as Bearer, and is refused as DPoP, at every resource server:
    /// the sample API takes proofs for DPoP tokens only.
    @Test(arguments: ["/userinfo", "/api/events", "/me/v1/authentication-methods"])
    func anUnboundTokenIsBearerOnly(_ path: String) async throws {
        let harness = try await TenantHarness()
        let prover = try await DPoPProver()
        let audience: String? =
            switch path {
            case "/api/events": "https://localhost/api/"
            case "/userinfo": nil
            default: "https://localhost/me/"
            }
        let scope = "openid read:events read:me:authentication_methods"
        let (bearer, dpop) = try await harness.router { http in
            let token = try await harness.signUp(http, scope: scope, audience: audience).accessToken.text
            return (
                try await http.call(path, scheme: "Bearer", token: token, proof: nil),
                try await http.call(
                    path, token: token,
                    proof: prover.proof("GET", "https://localhost" + path, iat: harness.clock.now, accessToken: token))
            )
        }
        #expect(bearer.status == .ok, "\(bearer.text)")
        expectRefused(dpop, "invalid_token", status: .unauthorized)
        #expect(dpop.headers[.wwwAuthenticate]?.hasPrefix(#"DPoP realm="localhost", error="invalid_token""#) == true)
    }

    /// A bound refresh token needs a proof of its key (RFC 9449 §5); failed attempts do not spend it.
    @Test func aBoundRefreshTokenNeedsItsKey() async throws {
        let harness = try await TenantHarness()
        let prover = try await DPoPProver()
        let other = try await DPoPProver()
        let (missing, wrongKey, refreshed) = try await harness.router { http in
            let now = harness.clock.now
            let tokens = try await harness.dpopSignUp(http, proof: prover.proof("POST", Self.tokenURL, iat: now))
                .decode(TokenResponse.self)
            let body = TokenRequest(
                grantType: TokenRequest.refreshGrant, clientID: harness.clientID, refreshToken: tokens.refreshToken)
            return (
                try await harness.dpopGrant(http, proof: nil, body),
                try await harness.dpopGrant(http, proof: other.proof("POST", Self.tokenURL, iat: now), body),
                try await harness.dpopGrant(http, proof: prover.proof("POST", Self.tokenURL, iat: now), body)
            )
        }
        expectRefused(missing, "invalid_dpop_proof", status: .badRequest)
        expectRefused(wrongKey, "invalid_grant", status: .badRequest)
        #expect(refreshed.status == .ok, "\(refreshed.text)")
        #expect(refreshed.json["token_type"] == .string("DPoP"))
        let tokens = try refreshed.decode(TokenResponse.self)
        #expect(try jwtClaims(tokens.accessToken)["cnf"] == .object(["jkt": .string(prover.thumbprint)]))
    }

    /// A Bearer refresh token refreshed with a proof gives a DPoP access token; the refresh token
    /// itself stays unbound.
    @Test func anUnboundRefreshTokenWithAProofGivesABoundAccessToken() async throws {
        let harness = try await TenantHarness()
        let prover = try await DPoPProver()
        let (bound, next) = try await harness.router { http in
            let tokens = try await harness.signUp(http)
            let bound = try await harness.dpopGrant(
                http, proof: prover.proof("POST", Self.tokenURL, iat: harness.clock.now),
                TokenRequest(
                    grantType: TokenRequest.refreshGrant, clientID: harness.clientID,
                    refreshToken: tokens.refreshToken))
            return (bound, try await harness.refresh(http, try bound.decode(TokenResponse.self).refreshToken!))
        }
        #expect(bound.json["token_type"] == .string("DPoP"))
        #expect(next.status == .ok)
        #expect(next.json["token_type"] == .string("Bearer"))
    }

    @Test func requireProofOfPossessionRefusesATokenWithoutAProof() async throws {
        var configuration = TenantConfiguration()
        configuration.requireProofOfPossession = true
        let harness = try await TenantHarness(configuration: configuration)
        let prover = try await DPoPProver()
        let (without, with) = try await harness.router { http in
            (
                try await harness.dpopSignUp(http, proof: nil),
                try await harness.dpopSignUp(http, proof: prover.proof("POST", Self.tokenURL, iat: harness.clock.now))
            )
        }
        expectRefused(without, "invalid_dpop_proof", status: .badRequest)
        #expect(with.status == .ok)
        #expect(with.json["token_type"] == .string("DPoP"))
    }

    /// `dpop_jkt` on `/authorize` binds the code: its exchange needs a proof of that key (RFC 9449 §10).
    @Test func dpopJKTBindsTheAuthorizationCode() async throws {
        let harness = try await TenantHarness()
        let flow = WebAuthFlow(harness)
        let prover = try await DPoPProver()
        let other = try await DPoPProver()
        let bound = ["dpop_jkt": prover.thumbprint]
        let (missing, wrongKey, exchanged, badJKT) = try await harness.router { http in
            let now = harness.clock.now
            func exchange(_ code: String, proof: String?) async throws -> HTTPResult {
                try await harness.dpopGrant(
                    http, proof: proof,
                    TokenRequest(
                        grantType: TokenRequest.authorizationCodeGrant, clientID: harness.clientID,
                        code: Secret(code), codeVerifier: Secret(flow.verifier), redirectURI: flow.redirectURI))
            }
            let first = try await flow.signUpForCode(http, bound).code
            let second = try await flow.logInForCode(http, bound).code
            let third = try await flow.logInForCode(http, bound).code
            return (
                try await exchange(first, proof: nil),
                try await exchange(second, proof: other.proof("POST", Self.tokenURL, iat: now)),
                try await exchange(third, proof: prover.proof("POST", Self.tokenURL, iat: now)),
                try await flow.authorize(http, ["dpop_jkt": "not-a-thumbprint"])
            )
        }
        #expect(missing.errorCode == "invalid_dpop_proof")
        #expect(wrongKey.errorCode == "invalid_grant")
        #expect(exchanged.status == .ok, "\(exchanged.text)")
        let tokens = try exchanged.decode(TokenResponse.self)
        #expect(tokens.tokenType == "DPoP")
        #expect(try jwtClaims(tokens.accessToken)["cnf"] == .object(["jkt": .string(prover.thumbprint)]))
        #expect(badJKT.location?.contains("error=invalid_request") == true)
    }
}

extension TenantHarness {
    /// Signs a new user up with a `DPoP` proof at the token endpoint; the answer as it came.
    func dpopSignUp(
        _ http: any TestClientProtocol, proof: String?, email: String = "ada@example.com",
        scope: String = "openid profile email offline_access", audience: String? = nil
    ) async throws -> HTTPResult {
        let (session, response) = try await signupResponse(http, email: email)
        return try await dpopGrant(
            http, proof: proof, webAuthnGrant(session: session, response: response, scope: scope, audience: audience))
    }

    /// Logs in with the harness's passkey and a `DPoP` proof; the answer as it came.
    func dpopLogIn(
        _ http: any TestClientProtocol, proof: String?, scope: String = "openid profile email offline_access",
        audience: String? = nil
    ) async throws -> HTTPResult {
        let (session, response) = try await loginResponse(http)
        return try await dpopGrant(
            http, proof: proof, webAuthnGrant(session: session, response: response, scope: scope, audience: audience))
    }

    /// `POST /oauth/token` with `body` and, when given, a `DPoP` proof.
    func dpopGrant(_ http: any TestClientProtocol, proof: String?, _ body: TokenRequest) async throws -> HTTPResult {
        var headers = HTTPFields()
        if let proof { headers[.dpop] = proof }
        return try await http.send(.post, "/oauth/token", json: body, headers: headers)
    }
}
