import Foundation
import Testing
import WebAuthn

@testable import PasskeyTenant

/// `POST /oauth/token`'s JSON body reads itself with the JSON scanner (issue 46) to the request
/// `JSONDecoder` reads, and its `authn_response` refuses the shape it is not with the same words
/// either way: the scanner leaves that shape to `JSONDecoder`, which decodes it only when asked.
@Suite struct TokenRequestReadingTests {
    static let assertion =
        #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"AA","authenticatorData":"AA","signature":"AA","userHandle":"AQ"},"clientExtensionResults":{}}"#
    static let attestation =
        #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"AA","attestationObject":"AA","transports":["internal"]},"clientExtensionResults":{}}"#

    static let bodies: [String] = [
        #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"app","auth_session":"s","authn_response":\#(assertion),"scope":"openid","audience":"https://api"}"#,
        #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"app","auth_session":"s","authn_response":\#(attestation),"realm":"Username-Password-Authentication"}"#,
        #"{"grant_type":"refresh_token","refresh_token":"r","organization":"org_1"}"#,
        #"{"grant_type":"authorization_code","client_id":"app","code":"c","code_verifier":"v","redirect_uri":"https://app/cb","client_secret":"x"}"#,
        #"{"grant_type":"http://auth0.com/oauth/grant-type/password-realm","username":"ada","password":"p","realm":"db","captcha":"k","otp":null}"#,
    ]

    /// Both paths' reading of a body: the request, and each shape's response or refusal.
    struct Reading: Equatable {
        let request: TokenRequest
        let registration: Result<RegistrationResponseJSON, TenantError>?
        let authentication: Result<AuthenticationResponseJSON, TenantError>?

        init(_ request: TokenRequest) {
            self.request = request
            registration = request.authnResponse.map { response in
                Result { () throws(TenantError) in try response.registrationResponse() }
            }
            authentication = request.authnResponse.map { response in
                Result { () throws(TenantError) in try response.authenticationResponse() }
            }
        }
    }

    @Test(arguments: bodies)
    func theScannerReadsWhatJSONDecoderReads(body: String) throws {
        var scanner = JSONScanner(Array(body.utf8))
        let scanned = try TokenRequest(scanning: &scanner)
        try scanner.end()
        let decoded = try JSONDecoder().decode(TokenRequest.self, from: Data(body.utf8))
        #expect(Reading(scanned) == Reading(decoded))
    }

    @Test func aResponseOfNeitherShapeIsLeftToJSONDecoderWhoseRefusalNamesTheMember() throws {
        let body =
            #"{"grant_type":"g","authn_response":{"id":"AQID","rawId":"AQID","type":"public-key","response":{}}}"#
        var scanner = JSONScanner(Array(body.utf8))
        #expect(throws: JSONScanner.Unreadable.self) { try TokenRequest(scanning: &scanner) }
        let request = try WebAuthnJSON.decode(TokenRequest.self, from: Array(body.utf8))
        #expect(throws: TenantError.invalidRequest("authn_response.response.clientDataJSON: missing")) {
            try request.authnResponse?.authenticationResponse()
        }
    }
}
