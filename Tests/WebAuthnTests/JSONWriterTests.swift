import Foundation
import Testing

@testable import WebAuthn

/// The ceremony responses write themselves (``JSONWritable``) byte for byte as `JSONEncoder`
/// would: every shape of them, with strings that need every kind of escape.
@Suite struct JSONWriterTests {
    /// Strings that exercise escaping: quotes, backslashes, every control character, `/`, DEL,
    /// non-ASCII and astral characters.
    static let awkward: [String] = [
        "", "platform", "a\"b\\c/d", String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }),
        "\u{7F}é\u{2028}\u{2029}😀", "</script>",
    ]

    static func bytes(_ count: Int) -> Base64URL {
        Base64URL(SecureRandom.bytes(count))
    }

    static func extensionOutputs(_ variant: Int) -> AuthenticationExtensionsClientOutputsJSON {
        switch variant % 5 {
        case 0: .init()
        case 1: .init(credProps: .init(rk: variant % 2 == 0))
        case 2: .init(credProps: .init(), prf: .init(enabled: true))
        case 3: .init(prf: .init(results: .init(first: bytes(32), second: variant % 3 == 0 ? bytes(32) : nil)))
        default: .init(credProps: .init(rk: true), prf: .init(enabled: false, results: .init(first: bytes(32))))
        }
    }

    @Test(arguments: 0..<40)
    func authenticationResponsesWriteAsJSONEncoderDoes(_ variant: Int) {
        let response = AuthenticationResponseJSON(
            id: variant < 6 ? Self.awkward[variant] : nil, rawId: Self.bytes(variant % 40),
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Self.bytes(120 + variant), authenticatorData: Self.bytes(37),
                signature: Self.bytes(70 + variant % 3), userHandle: variant % 2 == 0 ? Self.bytes(variant % 65) : nil),
            authenticatorAttachment: variant % 3 == 0 ? nil : .init(rawValue: Self.awkward[variant % 6]),
            clientExtensionResults: Self.extensionOutputs(variant),
            type: .init(rawValue: variant % 7 == 0 ? Self.awkward[variant % 6] : "public-key"))
        #expect(response.writesDirectly)
        #expect(WebAuthnJSON.encode(response) == WebAuthnJSON.encodeWithFoundation(response))
    }

    @Test(arguments: 0..<40)
    func registrationResponsesWriteAsJSONEncoderDoes(_ variant: Int) {
        let response = RegistrationResponseJSON(
            rawId: Self.bytes(16 + variant),
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Self.bytes(130), authenticatorData: variant % 2 == 0 ? Self.bytes(164) : nil,
                transports: variant % 3 == 0 ? nil : Self.awkward.map(AuthenticatorTransport.init(rawValue:)),
                publicKey: variant % 4 == 0 ? nil : Self.bytes(91),
                publicKeyAlgorithm: variant % 4 == 0 ? nil : [-7, -8, -257, Int.min, Int.max][variant % 5],
                attestationObject: Self.bytes(200 + variant)),
            authenticatorAttachment: variant % 2 == 0 ? .platform : nil,
            clientExtensionResults: Self.extensionOutputs(variant))
        #expect(response.writesDirectly)
        #expect(WebAuthnJSON.encode(response) == WebAuthnJSON.encodeWithFoundation(response))
    }

    /// Another extension's output is a ``JSONValue``: `JSONEncoder` writes the response.
    @Test func otherExtensionOutputsGoThroughJSONEncoder() throws {
        let response = AuthenticationResponseJSON(
            rawId: Self.bytes(16),
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Self.bytes(100), authenticatorData: Self.bytes(37), signature: Self.bytes(70)),
            clientExtensionResults: .init(otherExtensions: ["appid": .bool(true), "largeBlob": .object([:])]))
        #expect(!response.writesDirectly)
        let text = try #require(String(validating: WebAuthnJSON.encode(response), as: UTF8.self))
        #expect(text.contains(#""clientExtensionResults":{"appid":true,"largeBlob":{}}"#))
    }
}
