import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// `GET /.well-known/jwks.json` and `/.well-known/openid-configuration`: a standard JWT library
/// verifies the tenant's ID tokens with its JWKS (auth0-passkey-api.md §6.5, §12.8).
@Suite struct DiscoveryTests {
    struct IDToken: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var iat: IssuedAtClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    @Test func theJWKSVerifiesTheIDToken() async throws {
        let harness = try await TenantHarness()
        let (jwks, tokens) = try await harness.router { http in
            (try await http.send(.get, "/.well-known/jwks.json"), try await harness.signUp(http))
        }
        #expect(jwks.status == .ok)
        let key = try #require(jwks.json["keys"]?.arrayValue?.first?.objectValue)
        #expect(key["kty"] == .string("RSA"))
        #expect(key["alg"] == .string("RS256"))
        #expect(key["use"] == .string("sig"))
        #expect(key["kid"] == .string(harness.tenant.signingKeyID))
        let keys = try await JWTKeyCollection().add(jwksJSON: jwks.text)
        let idToken = try #require(tokens.idToken?.text)
        let claims = try await keys.verify(idToken, as: IDToken.self)
        #expect(claims.iss.value == "https://localhost/")
        #expect(claims.aud.value == [harness.clientID])
        let header = try JSONDecoder().decode(
            [String: String].self, from: Data(try Base64URL(string: String(idToken.split(separator: ".")[0])).bytes))
        #expect(header["alg"] == "RS256")
        #expect(header["kid"] == harness.tenant.signingKeyID)
    }

    @Test func discoveryNamesTheEndpoints() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in try await http.send(.get, "/.well-known/openid-configuration") }
        #expect(result.status == .ok)
        #expect(result.json["issuer"] == .string("https://localhost/"))
        #expect(result.json["jwks_uri"] == .string("https://localhost/.well-known/jwks.json"))
        #expect(result.json["token_endpoint"] == .string("https://localhost/oauth/token"))
        #expect(result.json["id_token_signing_alg_values_supported"] == .array([.string("RS256")]))
    }
}
