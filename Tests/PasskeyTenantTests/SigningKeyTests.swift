import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// A signing key given in the configuration (`TenantConfiguration.signingKeyPEM`, RFC 7518 §3.3)
/// is the key the tenant signs with: its RFC 7638 thumbprint is the `kid`, the same in every
/// database given it.
@Suite struct SigningKeyTests {
    /// The fixture key's public half, as a JWK's `n` and `e`, and its thumbprint.
    static func fixture() throws -> (key: Insecure.RSA.PublicKey, n: String, e: String, thumbprint: String) {
        let key = try Insecure.RSA.PrivateKey(pem: FixtureSigningKey.pem).publicKey
        let (modulus, exponent) = try key.getKeyPrimitives()
        let n = Base64URL.encode(Array(modulus))
        let e = Base64URL.encode(Array(exponent))
        // RFC 7638 §3.2: the required members in lexicographic order, no white space.
        let thumbprint = Base64URL.encode(SHA256Digest.hash(Array(#"{"e":"\#(e)","kty":"RSA","n":"\#(n)"}"#.utf8)))
        return (key, n, e, thumbprint)
    }

    @Test func theJWKSPublishesTheGivenKeyAndItsTokensVerifyWithIt() async throws {
        let fixture = try Self.fixture()
        let harness = try await TenantHarness()
        let (jwks, tokens) = try await harness.router { http in
            (try await http.send(.get, "/.well-known/jwks.json"), try await harness.signUp(http))
        }
        let published = try #require(jwks.json["keys"]?.arrayValue)
        #expect(published.count == 1)
        let key = try #require(published.first?.objectValue)
        #expect(key["kid"] == .string(fixture.thumbprint))
        #expect(key["n"] == .string(fixture.n))
        #expect(key["e"] == .string(fixture.e))
        #expect(harness.tenant.signingKeyID == fixture.thumbprint)

        let keys = await JWTKeyCollection().add(
            rsa: fixture.key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: fixture.thumbprint))
        let idToken = try await keys.verify(try #require(tokens.idToken?.text), as: DiscoveryTests.IDToken.self)
        #expect(idToken.aud.value == [harness.clientID])
        let accessToken = try await keys.verify(tokens.accessToken.text, as: DiscoveryTests.IDToken.self)
        #expect(accessToken.iss.value == "https://localhost/")
    }

    @Test func aSecondDatabaseGivenTheSamePEMHasTheSameKeyID() async throws {
        let first = try await TestTenant.open()
        let second = try await TestTenant.open()
        #expect(first.signingKeyID == (try Self.fixture().thumbprint))
        #expect(second.signingKeyID == first.signingKeyID)
    }

    @Test func aPEMThatIsNotAKeyIsRefused() async throws {
        let error = await #expect(throws: TenantError.self) {
            try await TestTenant.open(
                signingKey: Secret("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"))
        }
        #expect(error?.code == .serverError)
    }
}
