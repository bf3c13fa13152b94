import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The DPoP proof checks of RFC 9449 §4.3 at the token endpoint (auth0-passkey-api.md §16.2,
/// §16.3): each defect refused on its own with `invalid_dpop_proof`, the same grant then
/// accepted with a sound proof; replays across a restart; the nonce dance.
@Suite struct DPoPProofTests {
    static let tokenURL = "https://localhost/oauth/token"

    /// One thing wrong with an otherwise sound proof.
    enum Defect: String, CaseIterable, CustomStringConvertible {
        case wrongTyp, missingTyp, algNone, algHS256, algOfAnotherKeyType, jwkWithPrivateMember, missingJWK
        case badSignature, wrongHtm, lowerCaseHtm, wrongHtuPath, wrongHtuHost, iatTooOld, iatInTheFuture
        case emptyJti, twoHeaders, notACompactJWS

        var description: String { rawValue }

        /// The `DPoP` header values with this defect, for a `POST` to the token endpoint at `now`.
        func headerValues(_ prover: DPoPProver, now: Date) async throws -> [String] {
            let url = DPoPProofTests.tokenURL
            switch self {
            case .wrongTyp: return [try await prover.proof("POST", url, iat: now, header: ["typ": "JWT"])]
            case .missingTyp: return [try await prover.proof("POST", url, iat: now, header: ["typ": .null])]
            case .algNone:
                let header = JWTHeader(fields: ["typ": "dpop+jwt", "alg": "none", "jwk": .object(prover.jwk)])
                return [try DPoPProver.unsigned(header: header, claims: prover.claims("POST", url, iat: now))]
            case .algHS256:
                // A proof that verifies with the symmetric key it names: still no proof of possession.
                let secret = "a shared secret anyone can read from the header"
                let keys = JWTKeyCollection()
                await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
                let jwk: [String: JWTHeaderField] = ["kty": "oct", "k": .string(Base64URL.encode(Array(secret.utf8)))]
                return [
                    try await keys.sign(
                        prover.claims("POST", url, iat: now),
                        header: ["typ": "dpop+jwt", "alg": "HS256", "jwk": .object(jwk)])
                ]
            case .algOfAnotherKeyType:
                return [try await prover.proof("POST", url, iat: now, header: ["alg": "EdDSA"])]
            case .jwkWithPrivateMember:
                var jwk = prover.jwk
                jwk["d"] = .string(Base64URL.encode([UInt8](repeating: 7, count: 32)))
                return [try await prover.proof("POST", url, iat: now, header: ["jwk": .object(jwk)])]
            case .missingJWK: return [try await prover.proof("POST", url, iat: now, header: ["jwk": .null])]
            case .badSignature:
                // This proof's header and claims with the signature of another proof of the same key.
                let sound = try await prover.proof("POST", url, iat: now).split(separator: ".")
                let other = try await prover.proof("POST", url, iat: now).split(separator: ".")
                return ["\(sound[0]).\(sound[1]).\(other[2])"]
            case .wrongHtm: return [try await prover.proof("GET", url, iat: now)]
            case .lowerCaseHtm: return [try await prover.proof("post", url, iat: now)]
            case .wrongHtuPath: return [try await prover.proof("POST", "https://localhost/oauth/revoke", iat: now)]
            case .wrongHtuHost:
                return [try await prover.proof("POST", "https://elsewhere.example/oauth/token", iat: now)]
            case .iatTooOld: return [try await prover.proof("POST", url, iat: now.addingTimeInterval(-61))]
            case .iatInTheFuture: return [try await prover.proof("POST", url, iat: now.addingTimeInterval(61))]
            case .emptyJti: return [try await prover.proof("POST", url, iat: now, jti: "")]
            case .twoHeaders:
                return [try await prover.proof("POST", url, iat: now), try await prover.proof("POST", url, iat: now)]
            case .notACompactJWS:
                let sound = try await prover.proof("POST", url, iat: now)
                return [sound + "." + sound.split(separator: ".")[2]]
            }
        }
    }

    @Test(arguments: Defect.allCases)
    func eachDefectIsRefused(_ defect: Defect) async throws {
        let harness = try await TenantHarness()
        let prover = try await DPoPProver()
        let (refused, accepted) = try await harness.router { http in
            let (session, response) = try await harness.signupResponse(http)
            let body = TokenRequest(
                grantType: TokenRequest.webAuthnGrant, clientID: harness.clientID, authSession: session,
                authnResponse: response, scope: "openid")
            var headers = HTTPFields()
            for value in try await defect.headerValues(prover, now: harness.clock.now) {
                headers.append(HTTPField(name: .dpop, value: value))
            }
            let refused = try await http.send(.post, "/oauth/token", json: body, headers: headers)
            let sound = try await prover.proof("POST", Self.tokenURL, iat: harness.clock.now)
            return (refused, try await harness.dpopGrant(http, proof: sound, body))
        }
        #expect(refused.status == .badRequest, "\(refused.text)")
        #expect(refused.errorCode == "invalid_dpop_proof")
        #expect(refused.headers[.wwwAuthenticate] == nil)
        #expect(accepted.status == .ok, "\(accepted.text)")
        #expect(accepted.json["token_type"] == .string("DPoP"))
    }

    /// `htu` is compared without query or fragment, scheme and host in any case, the default port
    /// optional; the URL the request came to (its `Host`, `http` without TLS) counts too.
    @Test(arguments: [
        "https://localhost/oauth/token?x=1#f", "HTTPS://LocalHost:443/oauth/token", "http://localhost:8080/oauth/token",
    ])
    func theRequestURLMatchesNormalised(_ htu: String) async throws {
        let harness = try await TenantHarness()
        let prover = try await DPoPProver()
        let result = try await harness.router { http in
            let (session, response) = try await harness.signupResponse(http)
            let headers: HTTPFields = [
                .dpop: try await prover.proof("POST", htu, iat: harness.clock.now),
                HTTPField.Name("Host")!: "localhost:8080",
            ]
            return try await http.send(
                .post, "/oauth/token",
                json: harness.webAuthnGrant(session: session, response: response, scope: "openid"),
                headers: headers)
        }
        #expect(result.status == .ok, "\(result.text)")
    }

    @Test func aProofIsUsedOnce() async throws {
        let harness = try await TenantHarness()
        let prover = try await DPoPProver()
        let proof = try await prover.proof("POST", Self.tokenURL, iat: harness.clock.now)
        let (first, replayed) = try await harness.router { http in
            (try await harness.dpopSignUp(http, proof: proof), try await harness.dpopLogIn(http, proof: proof))
        }
        #expect(first.status == .ok)
        expectRefused(replayed, "invalid_dpop_proof", status: .badRequest)
    }

    /// The `jti`s seen are in the database (migration v6): a restart forgets none.
    @Test func aProofIsUsedOnceAcrossARestart() async throws {
        let directory = try TemporaryDirectory(prefix: "tenant")
        defer { directory.remove() }
        let path = directory.appending("tenant.sqlite")
        let first = try await TenantHarness(database: path)
        let prover = try await DPoPProver()
        let proof = try await prover.proof("POST", Self.tokenURL, iat: first.clock.now)
        let signup = try await first.router { http in try await first.dpopSignUp(http, proof: proof) }
        #expect(signup.status == .ok)

        let second = try await PasskeyTenant(database: path, clock: first.clock.tenantClock)
        let reopened = TenantHarness(tenant: second, clock: first.clock, device: first.device)
        let (replayed, fresh) = try await reopened.router { http in
            (
                try await reopened.dpopLogIn(http, proof: proof),
                try await reopened.dpopLogIn(
                    http, proof: try await prover.proof("POST", Self.tokenURL, iat: first.clock.now))
            )
        }
        expectRefused(replayed, "invalid_dpop_proof", status: .badRequest)
        #expect(fresh.status == .ok)
    }

    @Test func theTokenEndpointAsksForANonce() async throws {
        var configuration = TenantConfiguration()
        configuration.requiresDPoPNonce = true
        let harness = try await TenantHarness(configuration: configuration)
        let prover = try await DPoPProver()
        let (asked, wrong, answered) = try await harness.router { http in
            let now = harness.clock.now
            let asked = try await harness.dpopSignUp(http, proof: prover.proof("POST", Self.tokenURL, iat: now))
            let wrong = try await harness.dpopSignUp(
                http, proof: prover.proof("POST", Self.tokenURL, iat: now, nonce: "not-the-nonce"))
            let nonce = try #require(wrong.headers[.dpopNonce])
            let answered = try await harness.dpopSignUp(
                http, proof: prover.proof("POST", Self.tokenURL, iat: now, nonce: nonce))
            return (asked, wrong, answered)
        }
        for result in [asked, wrong] {
            expectRefused(
                result, "use_dpop_nonce", status: .badRequest,
                description: "Authorization server requires nonce in DPoP proof")
            #expect(result.headers[.dpopNonce]?.isEmpty == false)
        }
        #expect(answered.status == .ok, "\(answered.text)")
        #expect(answered.json["token_type"] == .string("DPoP"))
        let fresh = try #require(answered.headers[.dpopNonce])
        #expect(fresh != wrong.headers[.dpopNonce])
    }

    /// Asking for a nonce is a step of the protocol, not a failure: it never locks the address out.
    @Test func nonceRequestsDoNotCountAsFailures() async throws {
        var configuration = TenantConfiguration()
        configuration.requiresDPoPNonce = true
        configuration.attemptLimits = AttemptLimits(perUser: 1000, perAddress: 2, window: .seconds(60))
        let harness = try await TenantHarness(configuration: configuration)
        let prover = try await DPoPProver()
        let (asked, answered) = try await harness.router { http in
            var asked: [HTTPResult] = []
            for _ in 0..<3 {
                asked.append(
                    try await harness.dpopSignUp(
                        http, proof: prover.proof("POST", Self.tokenURL, iat: harness.clock.now)))
            }
            let nonce = asked.last?.headers[.dpopNonce]
            return (
                asked,
                try await harness.dpopSignUp(
                    http, proof: prover.proof("POST", Self.tokenURL, iat: harness.clock.now, nonce: nonce))
            )
        }
        #expect(asked.map(\.errorCode) == Array(repeating: "use_dpop_nonce", count: 3))
        #expect(answered.status == .ok, "\(answered.text)")
    }

    @Test func aResourceServerAsksForANonce() async throws {
        var configuration = TenantConfiguration()
        configuration.requiresDPoPNonce = true
        let harness = try await TenantHarness(configuration: configuration)
        let prover = try await DPoPProver()
        let userinfo = "https://localhost/userinfo"
        let (asked, answered) = try await harness.router { http in
            let now = harness.clock.now
            let first = try await harness.dpopSignUp(http, proof: prover.proof("POST", Self.tokenURL, iat: now))
            let tokens = try await harness.dpopSignUp(
                http, proof: prover.proof("POST", Self.tokenURL, iat: now, nonce: first.headers[.dpopNonce]),
                email: "ada@example.com"
            )
            let token = try tokens.decode(TokenResponse.self).accessToken.text
            let asked = try await http.call(
                "/userinfo", token: token, proof: prover.proof("GET", userinfo, iat: now, accessToken: token))
            let nonce = try #require(asked.headers[.dpopNonce])
            return (
                asked,
                try await http.call(
                    "/userinfo", token: token,
                    proof: prover.proof("GET", userinfo, iat: now, accessToken: token, nonce: nonce))
            )
        }
        expectRefused(asked, "use_dpop_nonce", status: .unauthorized)
        let challenge = try #require(asked.headers[.wwwAuthenticate])
        #expect(challenge.hasPrefix("DPoP "))
        #expect(challenge.contains(#"error="use_dpop_nonce""#))
        #expect(answered.status == .ok, "\(answered.text)")
        #expect(answered.headers[.dpopNonce]?.isEmpty == false)
    }

    /// Garbage in the `DPoP` header is a 4xx at the token endpoint and at a resource server.
    @Test(arguments: [
        "", "a", "a.b", "a.b.c", "..", "a..c", "e30.e30.e30", "W10.e30.c2ln", "bnVsbA.e30.c2ln", "=.=.=",
        Base64URL.encode(
            Array(#"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"!!","y":1}}"#.utf8))
            + ".e30.c2ln",
        Base64URL.encode(
            Array(#"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}}"#.utf8))
            + ".e30.c2ln",
        Base64URL.encode(Array(#"{"typ":"dpop+jwt","alg":"RS256","jwk":{"kty":"RSA","n":"AQAB","e":"AQAB"}}"#.utf8))
            + ".e30.c2ln",
        Base64URL.encode(Array((String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)).utf8))
            + ".e30.c2ln",
    ])
    func aMalformedHeaderIsNeverAServerError(_ value: String) async throws {
        let harness = try await TenantHarness()
        let prover = try await DPoPProver()
        let (token, resource) = try await harness.router { http in
            let tokens = try await harness.dpopSignUp(
                http, proof: prover.proof("POST", Self.tokenURL, iat: harness.clock.now)
            ).decode(TokenResponse.self)
            return (
                try await harness.dpopGrant(
                    http, proof: value,
                    TokenRequest(
                        grantType: TokenRequest.refreshGrant, clientID: harness.clientID,
                        refreshToken: tokens.refreshToken)),
                try await http.call("/userinfo", token: tokens.accessToken.text, proof: value)
            )
        }
        #expect(token.status == .badRequest, "\(token.text)")
        #expect(token.errorCode == "invalid_dpop_proof")
        #expect(resource.status == .unauthorized, "\(resource.text)")
        #expect(resource.errorCode == "invalid_dpop_proof")
    }

    @Test func discoveryListsTheProofAlgorithms() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.get, "/.well-known/openid-configuration")
        }
        #expect(
            result.json["dpop_signing_alg_values_supported"]
                == .array([.string("ES256"), .string("EdDSA"), .string("RS256")]))
    }
}
