import Auth0Passkeys
import FoundationEssentials
import HTTPTypes
import Hummingbird
import JWTKit
import PasskeyTenant
import TestSupport
import Testing
import _CryptoExtras

/// ID token validation (spec §6.5, §14.5): tokens the local tenant issues on passkey signup and
/// login, over loopback with `CurlTransport`; then each refusal, on tokens signed with the test's
/// own keys and checked against a JWKS a real loopback server answers.
@Suite struct IDTokenValidatorTests {
    static let clientId = "client-under-test"
    static let issuer = "https://login.example.com/"
    /// A fixed clock: 2025-05-15T13:29:32Z.
    static let now = Date(timeIntervalSince1970: 1_747_315_772)

    /// The claims a crafted token carries; every member optional, so a test can leave one out.
    struct Claims: JWTPayload {
        var iss: String? = IDTokenValidatorTests.issuer
        var sub: String? = "auth0|65f0c2d1a9e4b7c3d2e1f0a9"
        var aud: [String]? = [IDTokenValidatorTests.clientId]
        var exp: Int? = Int(IDTokenValidatorTests.now.timeIntervalSince1970) + 3600
        var iat: Int? = Int(IDTokenValidatorTests.now.timeIntervalSince1970)
        var nonce: String?
        var azp: String?
        var auth_time: Int?
        var org_id: String?
        var org_name: String?

        func verify(using algorithm: some JWTAlgorithm) {}
    }

    /// An RSA key of the test's own, with its JWK.
    struct TestKey {
        let kid: String
        let signer = JWTKeyCollection()
        let jwk: JWK

        init(kid: String, pem: String? = nil) async throws {
            self.kid = kid
            let key =
                try pem.map(Insecure.RSA.PrivateKey.init(pem:))
                ?? Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
            await signer.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
            let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
            jwk = .rsa(
                .rs256, identifier: JWKIdentifier(string: kid), modulus: base64URL(modulus),
                exponent: base64URL(exponent))
        }

        func sign(_ claims: Claims) async throws -> String {
            try await signer.sign(claims, kid: JWKIdentifier(string: kid))
        }
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    static func jwks(_ keys: [TestKey]) throws -> String {
        String(decoding: try JSONEncoder().encode(JWTKit.JWKS(keys: keys.map(\.jwk))), as: UTF8.self)
    }

    /// The code `body` fails with, or nil when it succeeds.
    static func code(_ body: () async throws -> Void) async -> IDTokenValidationError.Code? {
        do {
            try await body()
            return nil
        } catch let error as IDTokenValidationError {
            #expect(!error.reason.contains("eyJ") && !String(describing: error).contains("eyJ"))
            return error.code
        } catch {
            Issue.record("not an IDTokenValidationError: \(error)")
            return nil
        }
    }

    @Test func tokensTheTenantIssuesOnSignupAndLoginValidate() async throws {
        try await LiveTenant.run { live in
            let validator = IDTokenValidator(
                clientId: live.tenant.clientID, issuer: live.tenant.configuration.issuer,
                jwksURL: live.baseURL + "/.well-known/jwks.json")
            let phone = LiveTenant.device()
            let (_, signup) = try await live.signUp("ada@example.com", device: phone)
            let claims = try await validator.validate(signup.idToken)
            let (_, login) = try await live.logIn(device: phone)
            #expect(try await validator.validate(login.idToken).subject == claims.subject)
            #expect(claims.audience == [live.tenant.clientID])

            // The payload changed, the tenant's signature kept.
            let parts = signup.idToken.split(separator: ".")
            var forged = Claims()
            forged.iss = live.tenant.configuration.issuer
            forged.aud = [live.tenant.clientID]
            forged.sub = "auth0|someone-else"
            forged.exp = Int(Date().timeIntervalSince1970) + 3600
            let payload = Self.base64URL(try JSONEncoder().encode(forged))
            let tampered = "\(parts[0]).\(payload).\(parts[2])"
            #expect(await Self.code { _ = try await validator.validate(tampered) } == .invalidSignature)

            // Another client's validator refuses the audience.
            let other = IDTokenValidator(
                clientId: "another-client", issuer: live.tenant.configuration.issuer,
                jwksURL: live.baseURL + "/.well-known/jwks.json")
            #expect(await Self.code { _ = try await other.validate(login.idToken) } == .wrongAudience)
            // The tenant's issuer is https://localhost/, not the loopback URL it is reached at.
            let wrongIssuer = IDTokenValidator(
                clientId: live.tenant.clientID, issuer: live.baseURL + "/",
                jwksURL: live.baseURL + "/.well-known/jwks.json")
            #expect(await Self.code { _ = try await wrongIssuer.validate(login.idToken) } == .wrongIssuer)
        }
    }

    @Test func eachClaimRefusal() async throws {
        let key = try await TestKey(kid: "test-key", pem: FixtureSigningKey.pem)
        let server = CannedServer()
        let jwks = try Self.jwks([key])
        server.route(.get, "/.well-known/jwks.json") { _, _ in CannedServer.json(.ok, jwks) }
        let hits = server.hits
        try await server.run { baseURL in
            let validator = IDTokenValidator(
                clientId: Self.clientId, issuer: Self.issuer, jwksURL: baseURL + "/.well-known/jwks.json",
                now: { Self.now })
            func refusal(
                nonce: String? = nil, maxAge: Int? = nil, organization: String? = nil, _ change: (inout Claims) -> Void
            ) async throws -> IDTokenValidationError.Code? {
                var claims = Claims()
                change(&claims)
                let token = try await key.sign(claims)
                return await Self.code {
                    _ = try await validator.validate(token, nonce: nonce, maxAge: maxAge, organization: organization)
                }
            }
            let seconds = Int(Self.now.timeIntervalSince1970)

            #expect(try await refusal { _ in } == nil)
            #expect(try await refusal { $0.iss = "https://evil.example.com/" } == .wrongIssuer)
            #expect(try await refusal { $0.iss = nil } == .wrongIssuer)
            #expect(try await refusal { $0.sub = "" } == .missingSubject)
            #expect(try await refusal { $0.aud = ["another-client"] } == .wrongAudience)
            // exp within the 60 s leeway passes; beyond it, expired.
            #expect(try await refusal { $0.exp = seconds - 59 } == nil)
            #expect(try await refusal { $0.exp = seconds - 60 } == .expired)
            #expect(try await refusal { $0.exp = nil } == .expired)
            #expect(try await refusal { $0.iat = nil } == .missingIssuedAt)
            #expect(try await refusal(nonce: "n-1") { $0.nonce = "n-1" } == nil)
            #expect(try await refusal(nonce: "n-1") { $0.nonce = "n-2" } == .wrongNonce)
            #expect(try await refusal(nonce: "n-1") { $0.nonce = nil } == .wrongNonce)
            // A nonce in the token and none sent: not checked.
            #expect(try await refusal { $0.nonce = "n-2" } == nil)
            #expect(try await refusal { $0.aud = [Self.clientId, "api"] } == .wrongAuthorizedParty)
            #expect(
                try await refusal {
                    $0.aud = [Self.clientId, "api"]; $0.azp = Self.clientId
                } == nil)
            // auth_time + max_age + leeway ≥ now.
            #expect(try await refusal(maxAge: 300) { $0.auth_time = seconds - 360 } == nil)
            #expect(try await refusal(maxAge: 300) { $0.auth_time = seconds - 361 } == .authTimeTooOld)
            #expect(try await refusal(maxAge: 300) { $0.auth_time = nil } == .missingAuthTime)
            #expect(try await refusal { $0.auth_time = nil } == nil)
            #expect(try await refusal(organization: "org_Zq81") { $0.org_id = "org_Zq81" } == nil)
            #expect(try await refusal(organization: "org_Zq81") { $0.org_id = "org_other" } == .wrongOrganization)
            #expect(try await refusal(organization: "org_Zq81") { $0.org_name = "org_zq81" } == .wrongOrganization)
            #expect(try await refusal(organization: "Acme") { $0.org_name = "acme" } == nil)
            #expect(try await refusal(organization: "Acme") { $0.org_name = "Acme" } == .wrongOrganization)
            // First failure wins: a wrong issuer is reported before the expiry.
            #expect(
                try await refusal {
                    $0.iss = "https://evil.example.com/"; $0.exp = seconds - 3600
                } == .wrongIssuer)

            // The clock moved past exp + leeway.
            let token = try await key.sign(Claims())
            let later = IDTokenValidator(
                clientId: Self.clientId, issuer: Self.issuer, jwksURL: baseURL + "/.well-known/jwks.json",
                now: { Self.now.addingTimeInterval(3660) })
            #expect(await Self.code { _ = try await later.validate(token) } == .expired)
            #expect(await Self.code { _ = try await validator.validate("not.a-token") } == .malformed)
            // One fetch served every validation of the first validator; the second fetched its own.
            #expect(hits["/.well-known/jwks.json"] == 2)
        }
    }

    @Test func keyRotationAndForeignKeys() async throws {
        let current = try await TestKey(kid: "current", pem: FixtureSigningKey.pem)
        let rotated = try await TestKey(kid: "rotated")
        let foreign = try await TestKey(kid: "foreign")
        let before = try Self.jwks([current])
        let after = try Self.jwks([current, rotated])
        let server = CannedServer()
        server.route(.get, "/.well-known/jwks.json") { index, _ in
            CannedServer.json(.ok, index == 0 ? before : after)
        }
        server.route(.get, "/broken/jwks.json") { _, _ in CannedServer.json(.internalServerError, "{}") }
        let hits = server.hits
        try await server.run { baseURL in
            let validator = IDTokenValidator(
                clientId: Self.clientId, issuer: Self.issuer, jwksURL: baseURL + "/.well-known/jwks.json",
                now: { Self.now })
            try await validator.validate(try await current.sign(Claims()))
            #expect(hits["/.well-known/jwks.json"] == 1)
            // The tenant rotated: the new kid is fetched once, then kept.
            try await validator.validate(try await rotated.sign(Claims()))
            try await validator.validate(try await rotated.sign(Claims()))
            #expect(hits["/.well-known/jwks.json"] == 2)

            // A kid the JWKS lacks, even fetched again.
            let unknown = try await foreign.sign(Claims())
            #expect(await Self.code { _ = try await validator.validate(unknown) } == .unknownKey)
            #expect(hits["/.well-known/jwks.json"] == 3)

            // Another key signing under a kid the JWKS has.
            let impostor = try await TestKey(kid: "current")
            let forged = try await impostor.sign(Claims())
            #expect(await Self.code { _ = try await validator.validate(forged) } == .invalidSignature)

            // HS256 with a secret the client could know: refused before any key is looked up.
            let hmac = JWTKeyCollection()
            let secret = HMACKey(from: String(repeating: Self.clientId, count: 2))
            await hmac.add(hmac: secret, digestAlgorithm: .sha256, kid: "current")
            let symmetric = try await hmac.sign(Claims(), kid: "current")
            #expect(await Self.code { _ = try await validator.validate(symmetric) } == .invalidSignature)

            let broken = IDTokenValidator(
                clientId: Self.clientId, issuer: Self.issuer, jwksURL: baseURL + "/broken/jwks.json",
                now: { Self.now })
            #expect(
                await Self.code { _ = try await broken.validate(try await current.sign(Claims())) } == .jwksUnavailable)
        }
    }
}
