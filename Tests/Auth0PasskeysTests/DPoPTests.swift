import Auth0Passkeys
import Crypto
import FoundationEssentials
import Testing
import WebAuthn

/// DPoP on the client (RFC 9449; spec §16): the proof's bytes, checked by decoding the JWS and
/// verifying it with the key its own header carries; when each request carries one; the nonce
/// retry; the key kept in the session's entry.
@Suite struct DPoPTests {
    /// §16.4: the thumbprint of the example key, which is also its tokens' `cnf.jkt`.
    @Test func thumbprintOfTheSpecsExampleKey() {
        #expect(
            JWKThumbprint.p256(
                x: "SR0zPW_ewWYD_Sy-vuDxtuUWgBa1tkGUVVpOANmGdlI", y: "t1pMD3oXbUVQpAC2iFiljBdxOtpzAVSBsN1YM4lTTBA")
                == "QdWHki1c-2CjWk_Rqh2XgGurpjH4eu1VoOwHUV5KNHk")
    }

    /// §16.2: `ath` of the §3.5 access token.
    @Test func accessTokenHashOfTheSpecsExample() {
        #expect(
            DPoPProof.accessTokenHash("eyJhbGciOiJSUzI1NiIsImtpZCI6InN0YW5kLWluLTEifQ.e30.sig")
                == "zuIOtoOU3sD6idOwiJY5AvUYOUZrpasZFB2cV0cSAqk")
    }

    @Test func proofVerifiesWithTheKeyInItsHeaderAndCarriesTheClaims() async throws {
        let key = DPoPKey.generate()
        let issuedAt = Date(timeIntervalSince1970: 1_747_315_800.7)
        let proof = try await DPoPProof(
            key: key, method: "get", url: "https://login.example.com/userinfo?x=1#frag", accessToken: "AT-1",
            nonce: "n-0S6_WzA2Mj", jti: "6F1C2E2B-3D0A-4C55-9E59-2B7C1E0A9D11", issuedAt: issuedAt)
        let decoded = try DecodedProof(proof.compact)
        #expect(decoded.header["typ"] == .string("dpop+jwt"))
        #expect(decoded.header["alg"] == .string("ES256"))
        #expect(
            decoded.header["jwk"]
                == .object(["kty": .string("EC"), "crv": .string("P-256"), "x": .string(key.x), "y": .string(key.y)]))
        #expect(decoded.header.count == 3)
        let headerText = try String(
            decoding: Base64URL.decode(String(proof.compact.prefix { $0 != "." })), as: UTF8.self)
        #expect(
            headerText
                == #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"\#(key.x)","y":"\#(key.y)"}}"#
        )
        #expect(decoded.payload["htm"] == .string("GET"))
        #expect(decoded.payload["htu"] == .string("https://login.example.com/userinfo"))
        #expect(decoded.payload["jti"] == .string("6F1C2E2B-3D0A-4C55-9E59-2B7C1E0A9D11"))
        #expect(decoded.payload["iat"] == .number(1_747_315_800))
        #expect(decoded.payload["nonce"] == .string("n-0S6_WzA2Mj"))
        #expect(decoded.payload["ath"] == .string(DPoPProof.accessTokenHash("AT-1")))
        #expect(decoded.signature.count == 64)
        #expect(try decoded.verifies())
        #expect(key.thumbprint == decoded.thumbprint)
    }

    /// §16.2's example payload, byte for byte, from its inputs.
    @Test func payloadIsTheSpecsExample() async throws {
        let proof = try await DPoPProof(
            key: DPoPKey.generate(), method: "GET", url: "https://login.example.com/userinfo",
            accessToken: "eyJhbGciOiJSUzI1NiIsImtpZCI6InN0YW5kLWluLTEifQ.e30.sig", nonce: "n-0S6_WzA2Mj",
            jti: "6F1C2E2B-3D0A-4C55-9E59-2B7C1E0A9D11", issuedAt: Date(timeIntervalSince1970: 1_747_315_800))
        let payload = try Base64URL.decode(String(proof.compact.split(separator: ".")[1]))
        #expect(
            String(decoding: payload, as: UTF8.self)
                == #"{"htm":"GET","htu":"https://login.example.com/userinfo","#
                + #""jti":"6F1C2E2B-3D0A-4C55-9E59-2B7C1E0A9D11","iat":1747315800,"nonce":"n-0S6_WzA2Mj","#
                + #""ath":"zuIOtoOU3sD6idOwiJY5AvUYOUZrpasZFB2cV0cSAqk"}"#)
    }

    @Test func proofWithoutTokenOrNonceOmitsThemAndEachHasItsOwnJTI() async throws {
        let key = DPoPKey.generate()
        let first = try await DecodedProof(
            DPoPProof(key: key, method: "POST", url: "https://login.example.com/oauth/token"))
        let second = try await DecodedProof(
            DPoPProof(key: key, method: "POST", url: "https://login.example.com/oauth/token"))
        #expect(first.payload["ath"] == nil && first.payload["nonce"] == nil)
        #expect(first.payload.count == 4)
        let jti = try #require(first.payload["jti"]?.stringValue)
        #expect(UUID(uuidString: jti) != nil)
        #expect(jti != second.payload["jti"]?.stringValue)
        #expect(try first.verifies() && second.verifies())
    }

    @Test func aProofAltered() async throws {
        let proof = try await DPoPProof(
            key: DPoPKey.generate(), method: "GET", url: "https://login.example.com/userinfo")
        let parts = proof.compact.split(separator: ".").map(String.init)
        let otherPayload = Base64URL.encode(Array(#"{"htm":"POST"}"#.utf8))
        #expect(try !DecodedProof([parts[0], otherPayload, parts[2]].joined(separator: ".")).verifies())
        await #expect(throws: DPoPError.self) {
            try await DPoPProof(key: DPoPKey.generate(), method: "GET", url: "/userinfo")
        }
    }

    @Test func aDPoPTokenTypeRoundTripsThroughTheStoredForm() throws {
        let credentials = Credentials(
            accessToken: "AT", tokenType: "DPoP", idToken: "ID", refreshToken: "RT",
            expiresAt: Date(timeIntervalSince1970: 1_767_225_600))
        let decoded = try JSONDecoder().decode(Credentials.self, from: JSONEncoder().encode(credentials))
        #expect(decoded == credentials)
        #expect(decoded.tokenType == "DPoP")
        let response = try JSONDecoder().decode(Credentials.self, from: Data(Self.dpopTokens.utf8))
        #expect(response.tokenType == "DPoP")
    }

    @Test func keyNeverPrints() {
        let key = DPoPKey.generate()
        #expect(key.description == "DPoPKey(ES256, jkt: \(key.thumbprint))")
        #expect(Mirror(reflecting: key).children.isEmpty)
    }

    @Test(arguments: [
        (#"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#, true),
        (#"Bearer realm="api", DPoP error="use_dpop_nonce""#, true),
        ("dpop error=use_dpop_nonce", true),
        (#"DPoP algs="ES256", error="use_dpop_nonce""#, true),
        (#"DPoP error="invalid_token""#, false),
        (#"Bearer error="use_dpop_nonce""#, false),
    ])
    func nonceChallenges(header: String, asksForNonce: Bool) {
        let response = HTTPResponse(status: 401, headers: [(name: "WWW-Authenticate", value: header)])
        #expect(DPoPChallenge.requiresNonce(response) == asksForNonce)
    }

    // MARK: - Which requests carry a proof

    @Test func tokenGrantsMakeTheKeyRefreshUsesItRevokeAndChallengesNever() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let dpop = DPoP()
        let auth = try answer.authentication().useDPoP(dpop)
        _ = try await auth.renew(withRefreshToken: "RT").start()
        #expect(answer.requests[0].header("DPoP") == nil)
        #expect(dpop.key == nil)
        _ = try await auth.codeExchange(withCode: "c", codeVerifier: "v", redirectURI: "app://cb").start()
        let exchange = try DecodedProof(#require(answer.requests[1].header("DPoP")))
        #expect(exchange.payload["htm"] == .string("POST"))
        #expect(exchange.payload["htu"] == .string("https://login.example.com/oauth/token"))
        #expect(exchange.payload["ath"] == nil)
        #expect(exchange.thumbprint == dpop.thumbprint)
        _ = try await auth.renew(withRefreshToken: "RT").start()
        #expect(try DecodedProof(#require(answer.requests[2].header("DPoP"))).thumbprint == dpop.thumbprint)
        try await auth.revoke(refreshToken: "RT").start()
        #expect(answer.requests[3].header("DPoP") == nil)
        let challenges = ScriptedTransport(json: Fixtures.loginChallenge)
        _ = try await challenges.authentication().useDPoP(dpop).passkeyLoginChallenge().start()
        #expect(challenges.requests[0].header("DPoP") == nil)
    }

    /// RFC 9449 §10: the authorization code is bound to the key whose proof the exchange carries.
    @Test func webAuthSendsTheKeysThumbprintAsDPoPJKT() throws {
        let auth = try ScriptedTransport(json: "{}").authentication()
        let dpop = DPoP()
        let bound = try WebAuth(authentication: auth.useDPoP(dpop)).redirectURL("app://cb").authorization()
        #expect(bound.url.contains("&dpop_jkt=\(try #require(dpop.thumbprint))"))
        let plain = try WebAuth(authentication: auth).redirectURL("app://cb").authorization()
        #expect(!plain.url.contains("dpop_jkt"))
    }

    @Test func userInfoSignsOnlyADPoPToken() async throws {
        let answer = ScriptedTransport(json: #"{"sub":"auth0|ada"}"#)
        let dpop = DPoP(key: DPoPKey.generate())
        let auth = try answer.authentication().useDPoP(dpop)
        _ = try await auth.userInfo(withAccessToken: "AT-1", tokenType: "DPoP").start()
        _ = try await auth.userInfo(withAccessToken: "AT-2").start()
        #expect(answer.requests[0].header("Authorization") == "DPoP AT-1")
        let proof = try DecodedProof(#require(answer.requests[0].header("DPoP")))
        #expect(proof.payload["ath"] == .string(DPoPProof.accessTokenHash("AT-1")))
        #expect(proof.payload["htm"] == .string("GET"))
        #expect(proof.payload["htu"] == .string("https://login.example.com/userinfo"))
        #expect(try proof.verifies())
        #expect(answer.requests[1].header("Authorization") == "Bearer AT-2")
        #expect(answer.requests[1].header("DPoP") == nil)
    }

    @Test func myAccountSignsWithTheSessionKey() async throws {
        let answer = ScriptedTransport(json: #"{"authentication_methods":[]}"#)
        let dpop = DPoP(key: DPoPKey.generate())
        let account = try MyAccount(
            token: "AT-me", tokenType: "DPoP", baseURL: "https://login.example.com", client: answer.client()
        ).useDPoP(dpop)
        _ = try await account.authenticationMethods.getAuthenticationMethods(type: "passkey").start()
        #expect(answer.requests[0].header("Authorization") == "DPoP AT-me")
        let proof = try DecodedProof(#require(answer.requests[0].header("DPoP")))
        #expect(proof.payload["htu"] == .string("https://login.example.com/me/v1/authentication-methods"))
        #expect(proof.payload["ath"] == .string(DPoPProof.accessTokenHash("AT-me")))
        #expect(proof.thumbprint == dpop.thumbprint)
    }

    // MARK: - Nonces

    @Test func tokenEndpointNonceIsUsedOnceAndKept() async throws {
        let answer = ScriptedTransport { _, index in
            if index == 0 {
                return .success(
                    HTTPResponse(
                        status: 400, headers: [(name: "DPoP-Nonce", value: "n-1")],
                        body: Array(
                            #"{"error":"use_dpop_nonce","error_description":"Authorization server requires nonce in DPoP proof"}"#
                                .utf8)))
            }
            return .success(
                HTTPResponse(
                    status: 200, headers: [(name: "DPoP-Nonce", value: "n-\(index + 1)")],
                    body: Array(Fixtures.tokens().utf8)))
        }
        let dpop = DPoP()
        let auth = try answer.authentication().useDPoP(dpop)
        _ = try await auth.codeExchange(withCode: "c", codeVerifier: "v", redirectURI: "app://cb").start()
        #expect(answer.requests.count == 2)
        let first = try DecodedProof(#require(answer.requests[0].header("DPoP")))
        let second = try DecodedProof(#require(answer.requests[1].header("DPoP")))
        #expect(first.payload["nonce"] == nil)
        #expect(second.payload["nonce"] == .string("n-1"))
        #expect(first.payload["jti"] != second.payload["jti"])
        #expect(dpop.nonce == "n-2")
        _ = try await auth.renew(withRefreshToken: "RT").start()
        #expect(try DecodedProof(#require(answer.requests[2].header("DPoP"))).payload["nonce"] == .string("n-2"))
    }

    @Test func resourceNonceChallengeIsAnsweredOnceOnly() async throws {
        let answer = ScriptedTransport { _, index in
            .success(
                HTTPResponse(
                    status: 401,
                    headers: [
                        (name: "WWW-Authenticate", value: #"DPoP error="use_dpop_nonce""#),
                        (name: "DPoP-Nonce", value: "rs-\(index)"),
                    ]))
        }
        let auth = try answer.authentication().useDPoP(DPoP(key: DPoPKey.generate()))
        await #expect(throws: AuthenticationError.self) {
            try await auth.userInfo(withAccessToken: "AT-1", tokenType: "DPoP").start()
        }
        #expect(answer.requests.count == 2)
        #expect(try DecodedProof(#require(answer.requests[1].header("DPoP"))).payload["nonce"] == .string("rs-0"))
        // A request that carried no proof has nothing to sign again.
        await #expect(throws: AuthenticationError.self) {
            try await auth.userInfo(withAccessToken: "AT-2").start()
        }
        #expect(answer.requests.count == 3)
    }

    @Test func aRetryAfterA5xxSignsAFreshProof() async throws {
        let answer = ScriptedTransport { _, index in
            index == 0
                ? .success(HTTPResponse(status: 503))
                : .success(HTTPResponse(status: 200, body: Array(Fixtures.tokens().utf8)))
        }
        let auth = try answer.authentication().useDPoP(DPoP(key: DPoPKey.generate()))
        _ = try await auth.renew(withRefreshToken: "RT").start()
        #expect(answer.requests.count == 2)
        #expect(answer.requests[0].header("DPoP") != answer.requests[1].header("DPoP"))
    }

    // MARK: - The key kept with the session

    @Test func theKeyIsSealedWithTheSessionAndALaterManagerRenewsWithIt() async throws {
        let answer = ScriptedTransport(json: Self.dpopTokens)
        let storage = InMemoryCredentialsStorage()
        let auth = try answer.authentication()
        let dpop = DPoP()
        let login = try await auth.useDPoP(dpop).codeExchange(withCode: "c", codeVerifier: "v", redirectURI: "app://cb")
            .start()
        #expect(login.tokenType == "DPoP")
        let first = CredentialsManager(authentication: auth.useDPoP(dpop), storage: storage)
        try await first.store(credentials: login)
        let entry = try JSONDecoder().decode(
            [String: JSONValue].self, from: Data(#require(storage.entry(forKey: "credentials"))))
        #expect(entry["token_type"] == .string("DPoP"))
        #expect(entry["dpop_key"]?.stringValue?.count == 43)

        // A later process: a manager over the same storage, with no DPoP of its own.
        let later = CredentialsManager(authentication: auth, storage: storage)
        #expect(later.dpop.key == nil)
        let renewed = try await later.renew()
        #expect(renewed.tokenType == "DPoP")
        #expect(later.dpop.thumbprint == dpop.thumbprint)
        let proof = try DecodedProof(#require(answer.requests.last?.header("DPoP")))
        #expect(proof.thumbprint == dpop.thumbprint)
        #expect(try proof.verifies())

        try await later.clear()
        #expect(later.dpop.key == nil)
        #expect(storage.entry(forKey: "credentials") == nil)
    }

    @Test func aBearerSessionStoresNoKeyAndRenewsWithoutAProof() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let storage = InMemoryCredentialsStorage()
        let manager = CredentialsManager(authentication: try answer.authentication().useDPoP(), storage: storage)
        try await manager.store(credentials: Credentials(accessToken: "AT", tokenType: "Bearer", refreshToken: "RT"))
        let entry = try JSONDecoder().decode(
            [String: JSONValue].self, from: Data(#require(storage.entry(forKey: "credentials"))))
        #expect(entry["dpop_key"] == nil)
        _ = try await manager.renew()
        #expect(answer.requests[0].header("DPoP") == nil)
    }

    @Test func aDPoPSessionWithoutItsKeyIsNotRenewed() async throws {
        let answer = ScriptedTransport(json: Self.dpopTokens)
        let manager = CredentialsManager(
            authentication: try answer.authentication(), storage: InMemoryCredentialsStorage())
        try await manager.store(credentials: Credentials(accessToken: "AT", tokenType: "DPoP", refreshToken: "RT"))
        await #expect(throws: CredentialsManagerError(.dpopKeyMissing, "")) {
            try await manager.renew()
        }
        #expect(answer.requests.isEmpty)
    }

    static let dpopTokens = Fixtures.tokens().replacing(#""Bearer""#, with: #""DPoP""#)
}

/// A compact DPoP proof taken apart, and checked with the public key in its own header.
struct DecodedProof {
    let header: [String: JSONValue]
    let payload: [String: JSONValue]
    let signature: [UInt8]
    let signingInput: [UInt8]

    init(_ proof: DPoPProof) throws {
        try self.init(proof.compact)
    }

    init(_ compact: String) throws {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        header = try JSONDecoder().decode([String: JSONValue].self, from: Data(Base64URL.decode(parts[0])))
        payload = try JSONDecoder().decode([String: JSONValue].self, from: Data(Base64URL.decode(parts[1])))
        signature = try Base64URL.decode(parts[2])
        signingInput = Array((parts[0] + "." + parts[1]).utf8)
    }

    var jwk: (x: String, y: String)? {
        guard let jwk = header["jwk"]?.objectValue, let x = jwk["x"]?.stringValue, let y = jwk["y"]?.stringValue
        else { return nil }
        return (x, y)
    }

    /// The RFC 7638 thumbprint of the header's key.
    var thumbprint: String? { jwk.map { JWKThumbprint.p256(x: $0.x, y: $0.y) } }

    /// Whether the signature, as raw `r ‖ s`, verifies with the header's key (swift-crypto).
    func verifies() throws -> Bool {
        let jwk = try #require(jwk)
        let point = [4] + (try Base64URL.decode(jwk.x)) + (try Base64URL.decode(jwk.y))
        let key = try P256.Signing.PublicKey(x963Representation: point)
        return key.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: signingInput)
    }
}
