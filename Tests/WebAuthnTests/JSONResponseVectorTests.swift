import TestSupport
import Testing
import WebAuthn

/// Every registration and authentication response in `Vectors/realworld` and `Vectors/w3c`
/// decodes, and survives encoding and decoding again.
@Suite struct JSONResponseVectorTests {
    /// The parts of a `realworld/` case file these tests read.
    struct RealWorldCase<Response: Decodable>: Decodable {
        let ceremony: String
        let response: Response

        enum CodingKeys: String, CodingKey {
            case ceremony, response
        }
    }

    /// The parts of a `w3c/` vector file these tests read.
    struct W3CVector: Decodable {
        struct Registration: Decodable {
            let responseJSON: JSONValue

            enum CodingKeys: String, CodingKey {
                case responseJSON = "registration_response_json"
            }
        }

        struct Authentication: Decodable {
            let responseJSON: JSONValue

            enum CodingKeys: String, CodingKey {
                case responseJSON = "authentication_response_json"
            }
        }

        let registration: Registration
        let authentication: Authentication

        enum CodingKeys: String, CodingKey {
            case registration, authentication
        }
    }

    static func w3cVectorNames() throws -> [String] {
        try Vectors.names("w3c").filter { $0 != "attestation-root-cert.json" && $0 != "prf-hmac-secret.json" }
    }

    @Test(arguments: try Vectors.names("realworld"))
    func realWorld(name: String) throws {
        let bytes = try Vectors.bytes("realworld", name)
        try Self.decodeRealWorld(bytes, registration: name.hasPrefix("reg-"))
    }

    /// Decodes a case's response by its ceremony, then checks that encoding and decoding again
    /// gives the same value.
    static func decodeRealWorld(_ bytes: [UInt8], registration: Bool) throws {
        if registration {
            let vector = try WebAuthnJSON.decode(RealWorldCase<RegistrationResponseJSON>.self, from: bytes)
            #expect(vector.ceremony == "registration")
            #expect(vector.response.type == .publicKey)
            #expect(vector.response.id == vector.response.rawId.string)
            let again = try WebAuthnJSON.decode(
                RegistrationResponseJSON.self, from: WebAuthnJSON.encode(vector.response))
            #expect(again == vector.response)
        } else {
            let vector = try WebAuthnJSON.decode(RealWorldCase<AuthenticationResponseJSON>.self, from: bytes)
            #expect(vector.ceremony == "authentication")
            #expect(vector.response.type == .publicKey)
            #expect(vector.response.id == vector.response.rawId.string)
            let again = try WebAuthnJSON.decode(
                AuthenticationResponseJSON.self, from: WebAuthnJSON.encode(vector.response))
            #expect(again == vector.response)
        }
    }

    @Test func realWorldCoversBothCeremonies() throws {
        let names = try Vectors.names("realworld")
        #expect(names.count == 50)
        #expect(names.allSatisfy { $0.hasPrefix("reg-") || $0.hasPrefix("auth-") })
    }

    /// The W3C responses carry only L3 members, unpadded, so they re-encode to the same JSON value.
    @Test(arguments: try w3cVectorNames())
    func w3c(name: String) throws {
        let vector = try WebAuthnJSON.decode(W3CVector.self, from: Vectors.bytes("w3c", name))

        let registrationJSON = vector.registration.responseJSON
        let registration = try WebAuthnJSON.decode(
            RegistrationResponseJSON.self, from: WebAuthnJSON.encode(registrationJSON))
        #expect(
            try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: WebAuthnJSON.encode(registration))
                == registration)
        #expect(try Vectors.jsonValue(registration) == registrationJSON)

        let authenticationJSON = vector.authentication.responseJSON
        let authentication = try WebAuthnJSON.decode(
            AuthenticationResponseJSON.self, from: WebAuthnJSON.encode(authenticationJSON))
        #expect(
            try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: WebAuthnJSON.encode(authentication))
                == authentication)
        #expect(try Vectors.jsonValue(authentication) == authenticationJSON)
        #expect(authentication.rawId == registration.rawId)
    }

    @Test func w3cCoversFifteenVectors() throws {
        #expect(try Self.w3cVectorNames().count == 15)
    }

    @Test func androidCaptureKeepsAttachmentAndCredProps() throws {
        let bytes = try Vectors.bytes(
            "realworld", "reg-android-key-pywebauthn-verify-attestation-android-key-hardware-authority.json")
        let response = try WebAuthnJSON.decode(RealWorldCase<RegistrationResponseJSON>.self, from: bytes).response
        #expect(response.authenticatorAttachment == .platform)
        #expect(response.clientExtensionResults.credProps == CredentialPropertiesOutput(rk: false))
    }
}
