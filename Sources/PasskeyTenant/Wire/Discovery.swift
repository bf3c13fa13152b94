/// `GET /.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §3): what this tenant
/// serves, and nothing it does not (it has no `/authorize`, so no authorization endpoint).
struct OpenIDConfiguration: Sendable, Hashable, Codable {
    var issuer: String
    var tokenEndpoint: String
    var userinfoEndpoint: String
    var revocationEndpoint: String
    var jwksURI: String
    var grantTypesSupported: [String]
    var scopesSupported: [String]
    var subjectTypesSupported = ["public"]
    var idTokenSigningAlgValuesSupported = ["RS256"]
    var tokenEndpointAuthMethodsSupported = ["none"]
    var claimsSupported: [String]

    enum CodingKeys: String, CodingKey {
        case issuer
        case tokenEndpoint = "token_endpoint"
        case userinfoEndpoint = "userinfo_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case jwksURI = "jwks_uri"
        case grantTypesSupported = "grant_types_supported"
        case scopesSupported = "scopes_supported"
        case subjectTypesSupported = "subject_types_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case claimsSupported = "claims_supported"
    }
}
