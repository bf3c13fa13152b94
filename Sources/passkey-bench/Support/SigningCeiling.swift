import CryptoExtras
import JWTKit
import PasskeyTenant

/// The local tenant's RS256 ceiling, measured by the bench itself: the tenant signs every token
/// with its one 2048-bit RSA key through JWTKit (RS256, RFC 7518 §3.3), two per login (an access
/// token and an ID token). The bench makes that key, gives it to the tenant
/// (``configuration``), and signs an access token of the tenant's shape with it, the same way.
struct SigningCeiling {
    /// How many tokens a login signs: an access token and an ID token.
    static let tokensSignedPerLogin = 2

    /// A tenant configuration whose signing key is the one measured.
    let configuration: TenantConfiguration
    private let keys: JWTKeyCollection

    /// A new key, and a configuration that gives it to the tenant.
    init() async throws {
        let pem = try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation
        var configuration = TenantConfiguration()
        configuration.signingKeyPEM = Secret(pem)
        self.configuration = configuration
        keys = JWTKeyCollection()
        await keys.add(rsa: try Insecure.RSA.PrivateKey(pem: pem), digestAlgorithm: .sha256, kid: "bench")
    }

    /// Signs one throwaway access token with the tenant's key.
    func signSampleToken() async throws {
        let domain = configuration.domain
        let claims = SampleClaims(
            iss: configuration.issuer, sub: "auth0|sample", aud: "https://\(domain)/userinfo", azp: "sample",
            scope: "openid", iat: 0, exp: 0, jti: "sample")
        _ = try await keys.sign(claims, kid: "bench")
    }

    /// The claims of the tenant's access tokens (RFC 9068 §2.2).
    private struct SampleClaims: JWTPayload {
        let iss: String
        let sub: String
        let aud: String
        let azp: String
        let scope: String
        let iat: Int
        let exp: Int
        let jti: String

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
