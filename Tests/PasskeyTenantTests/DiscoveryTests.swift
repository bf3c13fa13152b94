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

    @Test func discoveryNamesWebAuth() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in try await http.send(.get, "/.well-known/openid-configuration") }
        #expect(result.json["authorization_endpoint"] == .string("https://localhost/authorize"))
        #expect(result.json["end_session_endpoint"] == .string("https://localhost/oidc/logout"))
        #expect(result.json["response_types_supported"] == .array([.string("code")]))
        #expect(
            result.json["response_modes_supported"]
                == .array([.string("query"), .string("fragment"), .string("form_post"), .string("web_message")]))
        #expect(result.json["code_challenge_methods_supported"] == .array([.string("S256")]))
        let grants = result.json["grant_types_supported"]?.arrayValue ?? []
        for grant in [
            "authorization_code", "password", "http://auth0.com/oauth/grant-type/password-realm",
            "http://auth0.com/oauth/grant-type/passwordless/otp",
        ] {
            #expect(grants.contains(.string(grant)), "\(grant)")
        }
        let without = try await TenantHarness(configuration: .passwords { $0.passwordsEnabled = false })
        let withoutResult = try await without.router { http in
            try await http.send(.get, "/.well-known/openid-configuration")
        }
        let withoutGrants = withoutResult.json["grant_types_supported"]?.arrayValue ?? []
        #expect(!withoutGrants.contains(.string("password")))
        #expect(withoutGrants.contains(.string("http://auth0.com/oauth/grant-type/passwordless/otp")))
        let claims = result.json["claims_supported"]?.arrayValue ?? []
        for claim in ["auth_time", "nonce", "amr", "sid", "org_id", "org_name"] {
            #expect(claims.contains(.string(claim)), "\(claim)")
        }
    }
}
