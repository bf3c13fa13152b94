import Testing
import WebAuthn

@testable import PasskeyTenant

/// The tenant's challenge and token answers write themselves byte for byte as `JSONEncoder`
/// writes them (sorted keys, `/` unescaped): what clients read does not change.
@Suite struct ResponseJSONTests {
    static let awkward = "a/b \"quoted\" \\ tab\tline\n\u{1}é"

    @Test(arguments: [
        TokenResponse(
            accessToken: Secret("eyJ.a/b.c"), expiresIn: 86_400, scope: "openid profile email offline_access",
            idToken: Secret("eyJ.id.sig"), refreshToken: Secret("r3fr3sh")),
        TokenResponse(accessToken: Secret(awkward), expiresIn: 0, scope: awkward, idToken: nil, refreshToken: nil),
        TokenResponse(
            accessToken: Secret("t"), tokenType: "DPoP", expiresIn: -1, scope: "", idToken: nil,
            refreshToken: Secret(awkward)),
    ])
    func tokenResponseWritesAsJSONEncoderDoes(_ response: TokenResponse) {
        #expect(WebAuthnJSON.encode(response) == WebAuthnJSON.encodeWithFoundation(response))
    }

    @Test func challengeResponsesWriteAsJSONEncoderDoes() throws {
        let request = try WebAuthnJSON.decode(
            PublicKeyCredentialRequestOptionsJSON.self,
            from: Array(
                #"{"challenge":"AAEC","rpId":"example.com","timeout":60000,"userVerification":"required","allowCredentials":[{"type":"public-key","id":"AQID","transports":["internal","hybrid"]}]}"#
                    .utf8))
        let login = RequestChallengeResponse(authSession: Secret(Self.awkward), options: request)
        #expect(WebAuthnJSON.encode(login) == WebAuthnJSON.encodeWithFoundation(login))

        let creation = try WebAuthnJSON.decode(
            PublicKeyCredentialCreationOptionsJSON.self,
            from: Array(
                #"{"rp":{"id":"example.com","name":"Ex/ample"},"user":{"id":"AQID","name":"a@example.com","displayName":"A \"B\""},"challenge":"AAEC","pubKeyCredParams":[{"type":"public-key","alg":-7},{"type":"public-key","alg":-257}],"authenticatorSelection":{"residentKey":"required","userVerification":"preferred"},"attestation":"none"}"#
                    .utf8))
        let signup = CreationChallengeResponse(authSession: Secret("s"), options: creation)
        #expect(WebAuthnJSON.encode(signup) == WebAuthnJSON.encodeWithFoundation(signup))
    }
}
