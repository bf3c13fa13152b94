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

    @Test(arguments: try Vectors.names("realworld"))
    func realWorld(name: String) throws {
        let bytes = try Vectors.bytes("realworld", name)
        try Self.decodeRealWorld(bytes, registration: name.hasPrefix("reg-"))
    }

    /// Decodes a case's response by its ceremony, then checks that encoding and decoding again
    /// gives the same value.
    static func decodeRealWorld(_ bytes: [UInt8], registration: Bool) throws {
        if registration {
            try decodeRealWorld(bytes, AuthenticatorAttestationResponseJSON.self, ceremony: "registration")
        } else {
            try decodeRealWorld(bytes, AuthenticatorAssertionResponseJSON.self, ceremony: "authentication")
        }
    }

    /// Decodes a case whose response is `PublicKeyCredentialJSON<Response>`, and again from its
    /// own encoding.
    static func decodeRealWorld<Response: Sendable & Hashable & Codable>(
        _ bytes: [UInt8], _ response: Response.Type, ceremony: String
    ) throws {
        let vector = try WebAuthnJSON.decode(RealWorldCase<PublicKeyCredentialJSON<Response>>.self, from: bytes)
        #expect(vector.ceremony == ceremony)
        #expect(vector.response.type == .publicKey)
        #expect(vector.response.id == vector.response.rawId.string)
        let again = try WebAuthnJSON.decode(
            PublicKeyCredentialJSON<Response>.self, from: WebAuthnJSON.encode(vector.response))
        #expect(again == vector.response)
    }

    @Test func realWorldCoversBothCeremonies() throws {
        let names = try Vectors.names("realworld")
        #expect(names.count == 50)
        #expect(names.allSatisfy { $0.hasPrefix("reg-") || $0.hasPrefix("auth-") })
    }

    /// The W3C responses carry only L3 members, unpadded, so they re-encode to the same JSON value.
    @Test(arguments: try W3CVector.names())
    func w3c(name: String) throws {
        let vector = try W3CVector.load(name)

        let registration = try Self.reencoded(
            vector.registration.registration_response_json, AuthenticatorAttestationResponseJSON.self)
        let authentication = try Self.reencoded(
            try #require(vector.authentication).authentication_response_json, AuthenticatorAssertionResponseJSON.self)
        #expect(authentication.rawId == registration.rawId)
    }

    @Test func w3cCoversFifteenVectors() throws {
        #expect(try W3CVector.names().count == 15)
    }

    /// `json` decoded as `PublicKeyCredentialJSON<Response>`, which decodes back equal from its
    /// own encoding and encodes to the same JSON value.
    static func reencoded<Response: Sendable & Hashable & Codable>(_ json: JSONValue, _: Response.Type) throws
        -> PublicKeyCredentialJSON<Response>
    {
        let decoded = try WebAuthnJSON.decode(PublicKeyCredentialJSON<Response>.self, from: WebAuthnJSON.encode(json))
        #expect(
            try WebAuthnJSON.decode(PublicKeyCredentialJSON<Response>.self, from: WebAuthnJSON.encode(decoded))
                == decoded)
        #expect(try Vectors.jsonValue(decoded) == json)
        return decoded
    }

    @Test func androidCaptureKeepsAttachmentAndCredProps() throws {
        let bytes = try Vectors.bytes(
            "realworld", "reg-android-key-pywebauthn-verify-attestation-android-key-hardware-authority.json")
        let response = try WebAuthnJSON.decode(RealWorldCase<RegistrationResponseJSON>.self, from: bytes).response
        #expect(response.authenticatorAttachment == .platform)
        #expect(response.clientExtensionResults.credProps == CredentialPropertiesOutput(rk: false))
    }
}
