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

    static func descriptors(_ variant: Int) -> [PublicKeyCredentialDescriptorJSON] {
        (0..<(variant % 3)).map { index in
            PublicKeyCredentialDescriptorJSON(
                type: .init(rawValue: awkward[(variant + index) % 6]), id: bytes(16 + index),
                transports: index % 2 == 0 ? nil : [.internal, .init(rawValue: awkward[variant % 6])])
        }
    }

    static func extensionInputs(_ variant: Int) -> AuthenticationExtensionsClientInputsJSON? {
        switch variant % 4 {
        case 0: nil
        case 1: .init(credProps: variant % 3 == 0)
        case 2: .init(prf: .init(eval: .init(first: bytes(32), second: variant % 5 == 0 ? bytes(32) : nil)))
        default:
            .init(
                credProps: true,
                prf: .init(
                    evalByCredential: Dictionary(
                        uniqueKeysWithValues: ["b", "A", "a_", "-x", "Zz", "9"].prefix(variant % 7).map {
                            ($0, AuthenticationExtensionsPRFValuesJSON(first: bytes(32)))
                        })))
        }
    }

    @Test(arguments: 0..<40)
    func creationOptionsWriteAsJSONEncoderDoes(_ variant: Int) {
        let options = PublicKeyCredentialCreationOptionsJSON(
            rp: .init(name: Self.awkward[variant % 6], id: variant % 2 == 0 ? nil : "example.com"),
            user: .init(id: Self.bytes(1 + variant % 64), name: Self.awkward[(variant + 1) % 6], displayName: "Ü"),
            challenge: Self.bytes(32),
            pubKeyCredParams: [-7, -8, -257, Int.min].prefix(variant % 5).map { .init(alg: $0) },
            timeout: variant % 3 == 0 ? nil : UInt32.max - UInt32(variant),
            excludeCredentials: variant % 4 == 0 ? nil : Self.descriptors(variant),
            authenticatorSelection: variant % 2 == 0
                ? nil
                : .init(
                    authenticatorAttachment: .platform, residentKey: .required,
                    requireResidentKey: variant % 3 == 0 ? nil : true, userVerification: .preferred),
            hints: variant % 5 == 0 ? nil : [.securityKey, .init(rawValue: Self.awkward[variant % 6])],
            attestation: variant % 2 == 0 ? .direct : nil,
            attestationFormats: variant % 3 == 0 ? ["packed", Self.awkward[variant % 6]] : nil,
            extensions: Self.extensionInputs(variant))
        #expect(options.writesDirectly)
        #expect(WebAuthnJSON.encode(options) == WebAuthnJSON.encodeWithFoundation(options))
    }

    @Test(arguments: 0..<40)
    func requestOptionsWriteAsJSONEncoderDoes(_ variant: Int) {
        let options = PublicKeyCredentialRequestOptionsJSON(
            challenge: Self.bytes(32), timeout: variant % 3 == 0 ? nil : UInt32(variant),
            rpId: variant % 2 == 0 ? nil : Self.awkward[variant % 6],
            allowCredentials: variant % 4 == 0 ? nil : Self.descriptors(variant),
            userVerification: variant % 3 == 1 ? .discouraged : nil,
            hints: variant % 5 == 1 ? [.hybrid] : nil, extensions: Self.extensionInputs(variant))
        #expect(options.writesDirectly)
        #expect(WebAuthnJSON.encode(options) == WebAuthnJSON.encodeWithFoundation(options))
    }

    /// PRF inputs by credential whose IDs are not ASCII, and other extensions' inputs, are
    /// written by `JSONEncoder`.
    @Test func unusualExtensionInputsGoThroughJSONEncoder() {
        for extensions in [
            AuthenticationExtensionsClientInputsJSON(
                prf: .init(evalByCredential: ["é": .init(first: Self.bytes(32)), "z": .init(first: Self.bytes(32))])),
            AuthenticationExtensionsClientInputsJSON(otherExtensions: ["appid": .string("https://example.com")]),
        ] {
            let options = PublicKeyCredentialRequestOptionsJSON(challenge: Self.bytes(32), extensions: extensions)
            #expect(!options.writesDirectly)
            #expect(WebAuthnJSON.encode(options) == WebAuthnJSON.encodeWithFoundation(options))
        }
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
