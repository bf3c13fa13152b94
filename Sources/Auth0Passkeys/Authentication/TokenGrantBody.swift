/// The body of `POST /oauth/token`, one struct for every grant the client sends: `grant_type`
/// and `client_id`, then the members of that grant; `nil` members are left out. A confidential
/// client's `client_secret` is not the grant's: ``Authentication`` adds it, or
/// `Authorization: Basic`, as its ``ClientAuthentication`` says.
///
/// | grant | members | rule |
/// |---|---|---|
/// | `refresh_token` | `refresh_token`, `audience`?, `scope`? | spec §6.1, RFC 6749 §6 |
/// | `client_credentials` | `audience` (and the secret, as `client_secret_post`) | spec §15.1, RFC 6749 §4.4.2 |
/// | `authorization_code` | `code`, `code_verifier`, `redirect_uri` | spec §14.3, RFC 6749 §4.1.3, RFC 7636 §4.5 |
/// | webauthn | `auth_session`, `authn_response`, `scope`, `realm`?, `audience`?, `organization`? | spec §3.1 |
/// | passwordless OTP | `username`, `otp`, `realm` (`email`, `sms`), `scope`, `audience`? | Auth0 "Authenticate User" |
/// | password-realm | `username`, `password`, `realm`, `scope`, `audience`?, `captcha`? | Auth0's, RFC 6749 §4.3.2 |
/// | `password` | `username`, `password`, `scope`, `audience`?, `captcha`? | RFC 6749 §4.3.2 |
struct TokenGrantBody: Encodable {
    /// `grant_type`.
    enum Grant: String, Encodable {
        case refreshToken = "refresh_token"
        case clientCredentials = "client_credentials"
        case authorizationCode = "authorization_code"
        case webAuthn = "urn:okta:params:oauth:grant-type:webauthn"
        case passwordlessOTP = "http://auth0.com/oauth/grant-type/passwordless/otp"
        case passwordRealm = "http://auth0.com/oauth/grant-type/password-realm"
        case password
    }

    let grantType: Grant
    let clientId: String
    var refreshToken: String? = nil
    var code: String? = nil
    var codeVerifier: String? = nil
    var redirectURI: String? = nil
    var authSession: String? = nil
    var authnResponse: AuthnResponseBody? = nil
    var scope: String? = nil
    var realm: String? = nil
    var audience: String? = nil
    var organization: String? = nil
    // The password grants (username, password, captcha) and the passwordless OTP grant (username, otp).
    var username: String? = nil
    var password: String? = nil
    var captcha: String? = nil
    var otp: String? = nil

    enum CodingKeys: String, CodingKey {
        case grantType = "grant_type"
        case clientId = "client_id"
        case refreshToken = "refresh_token"
        case code
        case codeVerifier = "code_verifier"
        case redirectURI = "redirect_uri"
        case authSession = "auth_session"
        case authnResponse = "authn_response"
        case scope, realm, audience, organization
        case username, password, captcha, otp
    }
}
