import Crypto
import Foundation
import TestSupport
import Testing
import WebAuthn
import X509

/// The `android-safetynet` format (WebAuthn L3 §8.5), each step of its procedure broken alone in a
/// SafetyNet response signed for the test.
@Suite struct AndroidSafetyNetAttestationTests {
    /// A SafetyNet response for `ceremony`, every claim open to change.
    struct Response: ValidRegistration {
        var ceremony: HandmadeCeremony
        var hostname = "attest.android.com"
        var nonce: String?
        var age: TimeInterval = 5
        var ctsProfileMatch = true
        var withCertificates = true
        var signer: P256.Signing.PrivateKey?
        var version = "21.42.18"

        init() throws {
            ceremony = try HandmadeCeremony()
        }

        /// The compact JWS, signed by the leaf (or `signer`).
        func jws(_ authority: TestCertificateAuthority, leafKey: P256.Signing.PrivateKey) throws -> String {
            let leaf = try authority.issue(
                DistinguishedName { CommonName(hostname) }, publicKey: .init(leafKey.publicKey))
            let attToBeSigned = try ceremony.authenticatorData().bytes + SHA256Digest.hash(ceremony.clientData(.create))
            var header = JSONValue.object(["alg": .string("ES256")])
            if withCertificates {
                header["x5c"] = .array([.string(Data(try TestCertificateAuthority.der(leaf)).base64EncodedString())])
            }
            let claims = JSONValue.object([
                "nonce": .string(nonce ?? Data(SHA256Digest.hash(attToBeSigned)).base64EncodedString()),
                "timestampMs": .number(((Date().timeIntervalSince1970 - age) * 1000).rounded(.down)),
                "ctsProfileMatch": .bool(ctsProfileMatch), "basicIntegrity": .bool(true),
                "apkPackageName": .string("com.google.android.gms"),
            ])
            let input = Base64URL.encode(header.json) + "." + Base64URL.encode(claims.json)
            let signature = try (signer ?? leafKey).signature(for: Data(input.utf8)).rawRepresentation
            return input + "." + Base64URL.encode(Array(signature))
        }

        func register() throws -> VerifiedRegistration {
            try register(policy: .init())
        }

        func register(policy: AttestationPolicy = .init(), jws: String? = nil) throws -> VerifiedRegistration {
            let authority = try TestCertificateAuthority()
            var ceremony = ceremony
            ceremony.format = .androidSafetyNet
            let response = try jws ?? self.jws(authority, leafKey: P256.Signing.PrivateKey())
            ceremony.statement = ["ver": .text(version), "response": .bytes(Array(response.utf8))]
            return try ceremony.register(
                RelyingParty(
                    ids: ["example.org"], trustAnchors: [.androidSafetyNet: [authority.anchor]],
                    attestationPolicy: policy))
        }
    }

    @Test func aSafetyNetRegistrationIsBasicAndTrusted() throws {
        try Response.expectTrusted(.basic)
    }

    /// Step 1: `ver` is set and `response` is a compact JWS with its certificates.
    @Test func theStatementIsAJWS() throws {
        try Response.expect(.invalidAttestationStatement) { $0.version = "" }
        for jws in ["e30.e30", "!.!.!", "e30.e30.AAAA", #"eyJhbGciOiJub25lIn0.e30."#] {
            #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) { try Response().register(jws: jws) }
        }
        try Response.expect(.invalidAttestationStatement) { $0.withCertificates = false }
    }

    /// Step 2: the nonce is base64 of SHA-256(authenticatorData ‖ clientDataHash).
    @Test func theNonceIsThisCeremonys() throws {
        try Response.expect(.invalidAttestationStatement) {
            $0.nonce = Data(repeating: 1, count: 32).base64EncodedString()
        }
    }

    /// Step 3: the leaf is attest.android.com's and signed the JWS.
    @Test func attestAndroidComSigned() throws {
        try Response.expect(.attestationCertificateRequirements) { $0.hostname = "attest.example.com" }
        try Response.expect(.badAttestationSignature) { $0.signer = P256.Signing.PrivateKey() }
    }

    /// Step 4: ctsProfileMatch, and a timestamp within the policy's window.
    @Test func theDeviceIsCompatibleAndTheResponseFresh() throws {
        try Response.expect(.invalidAttestationStatement) { $0.ctsProfileMatch = false }
        try Response.expect(.invalidAttestationStatement) { $0.age = 120 }
        try Response.expect(.invalidAttestationStatement) { $0.age = -30 }
        var response = try Response()
        response.age = -30
        #expect(try response.register(policy: AttestationPolicy(safetyNetClockSkew: .seconds(60))).isTrusted)
        response.age = 300
        #expect(try response.register(policy: AttestationPolicy(safetyNetMaximumAge: .seconds(600))).isTrusted)
    }
}
