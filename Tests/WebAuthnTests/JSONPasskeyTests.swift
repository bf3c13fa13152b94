import Foundation
import TestSupport
import Testing
import WebAuthn

/// Responses from any authenticator or browser drive the Auth0 flows through the credential
/// protocols.
@Suite struct JSONPasskeyTests {
    /// What Auth0's client reads from a signup passkey, through the protocol only.
    static func signupValues(_ passkey: some SignupPasskey) -> [Data] {
        [passkey.credentialID, passkey.rawClientDataJSON, passkey.rawAttestationObject]
    }

    /// What Auth0's client reads from a login passkey, through the protocol only.
    static func loginValues(_ passkey: any LoginPasskey) -> [Data] {
        [
            passkey.userID, passkey.credentialID, passkey.rawClientDataJSON, passkey.rawAuthenticatorData,
            passkey.signature,
        ]
    }

    static func registration(attachment: AuthenticatorAttachment?) -> RegistrationResponseJSON {
        RegistrationResponseJSON(
            rawId: Base64URL([1, 2, 3]),
            response: .init(clientDataJSON: Base64URL([4]), attestationObject: Base64URL([5, 6])),
            authenticatorAttachment: attachment)
    }

    static func authentication(userHandle: Base64URL?, attachment: AuthenticatorAttachment? = nil)
        -> AuthenticationResponseJSON
    {
        AuthenticationResponseJSON(
            rawId: Base64URL([1, 2, 3]),
            response: .init(
                clientDataJSON: Base64URL([4]), authenticatorData: Base64URL([5]), signature: Base64URL([6]),
                userHandle: userHandle),
            authenticatorAttachment: attachment)
    }

    @Test func registrationResponseIsASignupPasskey() {
        let passkey = Self.registration(attachment: .platform)
        #expect(Self.signupValues(passkey) == [Data([1, 2, 3]), Data([4]), Data([5, 6])])
        #expect(passkey.attachment == .platform)
    }

    @Test(
        arguments: [
            (AuthenticatorAttachment.platform, AuthenticatorAttachment.platform),
            (.crossPlatform, .crossPlatform), ("wearable", nil), (nil, nil),
        ] as [(AuthenticatorAttachment?, AuthenticatorAttachment?)])
    func attachmentIsKnownOrNil(reported: AuthenticatorAttachment?, expected: AuthenticatorAttachment?) throws {
        #expect(Self.registration(attachment: reported).attachment == expected)
        let login = try LoginPasskeyResponse(Self.authentication(userHandle: Base64URL([9]), attachment: reported))
        #expect(login.attachment == expected)
    }

    @Test func authenticationResponseWithUserHandleIsALoginPasskey() throws {
        let passkey = try LoginPasskeyResponse(Self.authentication(userHandle: Base64URL([9, 9])))
        #expect(Self.loginValues(passkey) == [Data([9, 9]), Data([1, 2, 3]), Data([4]), Data([5]), Data([6])])
        #expect(passkey.attachment == nil)
    }

    @Test func authenticationResponseWithoutUserHandleIsRefused() {
        #expect(throws: WebAuthnError(.malformedJSON, "")) {
            try LoginPasskeyResponse(Self.authentication(userHandle: nil))
        }
    }

    @Test func realWorldAssertionDrivesLogin() throws {
        struct Case: Decodable {
            let response: AuthenticationResponseJSON
            enum CodingKeys: String, CodingKey { case response }
        }
        let response = try WebAuthnJSON.decode(
            Case.self,
            from: Vectors.bytes("realworld", "auth-es256-pywebauthn-supports-multiple-expected-origins.json")
        ).response
        let passkey = try LoginPasskeyResponse(response)
        #expect(passkey.credentialID == Data(response.rawId.bytes))
        #expect(passkey.userID == Data(try #require(response.response.userHandle).bytes))
        #expect(passkey.signature == Data(response.response.signature.bytes))
    }
}
