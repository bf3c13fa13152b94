/// `GET /.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §3; RFC 8414 §2 for
/// `code_challenge_methods_supported`; OpenID Connect RP-Initiated Logout 1.0 §2.1 for
/// `end_session_endpoint`; RFC 9449 §5.1 for `dpop_signing_alg_values_supported`): what this tenant serves, and nothing it does not.
struct OpenIDConfiguration: Sendable, Hashable, Codable {
    var issuer: String
    var authorizationEndpoint: String
    var tokenEndpoint: String
    var userinfoEndpoint: String
    var revocationEndpoint: String
    var endSessionEndpoint: String
    var jwksURI: String
    var responseTypesSupported = ["code"]
    /// What ``AuthorizationResponse/Mode`` takes.
    var responseModesSupported = ["query", "fragment", "form_post", "web_message"]
    var codeChallengeMethodsSupported = ["S256"]
    var grantTypesSupported: [String]
    var scopesSupported: [String]
    var subjectTypesSupported = ["public"]
    var idTokenSigningAlgValuesSupported = ["RS256"]
    /// Every method of ``TenantApplication/TokenEndpointAuthMethod``: what the token and
    /// revocation endpoints take (OpenID Connect Discovery 1.0 §3).
    var tokenEndpointAuthMethodsSupported = TenantApplication.TokenEndpointAuthMethod.allCases.map(\.rawValue)
    var claimsSupported: [String]
    /// The `alg` values accepted in DPoP proofs (RFC 9449 §5.1).
    var dpopSigningAlgValuesSupported = DPoPKey.algorithms

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case endSessionEndpoint = "end_session_endpoint"
        case responseTypesSupported = "response_types_supported"
        case responseModesSupported = "response_modes_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
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
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
    }
}
