import TestSupport
import Testing
import WebAuthn

/// Codec properties of the WebAuthn structures, on every W3C vector: parsing keeps the bytes,
/// building gives them back, every strict prefix is refused with a typed error, and mutated or
/// random bytes never crash a parser.
@Suite struct ModelCodecTests {
    @Test(arguments: W3CVectorTests.vectors)
    func strictPrefixesThrow(_ vector: W3CVector) throws {
        let expected = vector.registration.expected
        for length in 0..<expected.attestationObject_hex.bytes.count {
            #expect(throws: WebAuthnError.self) {
                try AttestationObject(bytes: expected.attestationObject_hex.bytes.prefix(length))
            }
        }
        for length in 0..<expected.authenticatorData_hex.bytes.count {
            #expect(throws: WebAuthnError.self) {
                try AuthenticatorData(bytes: expected.authenticatorData_hex.bytes.prefix(length))
            }
        }
        for length in 0..<expected.credentialPublicKey_cose_hex.bytes.count {
            #expect(throws: WebAuthnError.self) {
                try COSEKey(bytes: expected.credentialPublicKey_cose_hex.bytes.prefix(length))
            }
        }
        for length in 0..<expected.clientDataJSON_hex.bytes.count {
            #expect(throws: WebAuthnError(.malformedClientData, "")) {
                try CollectedClientData(bytes: expected.clientDataJSON_hex.bytes.prefix(length))
            }
        }
    }

    @Test(arguments: W3CVectorTests.vectors)
    func parsedBytesRoundTrip(_ vector: W3CVector) throws {
        let expected = vector.registration.expected
        let object = try AttestationObject(bytes: expected.attestationObject_hex.bytes)
        #expect(object.bytes == expected.attestationObject_hex.bytes)
        let authData = object.authenticatorData
        let rebuilt = AuthenticatorData(
            rpIDHash: authData.rpIDHash, flags: authData.flags, signCount: authData.signCount,
            attestedCredentialData: authData.attestedCredentialData, extensions: authData.extensions)
        #expect(rebuilt == authData)
        let clientData = try CollectedClientData(bytes: expected.clientDataJSON_hex.bytes)
        #expect(clientData.bytes == expected.clientDataJSON_hex.bytes)
    }

    /// Builds client data the way a client does and checks it against the vector's (which adds
    /// `extraData` to some; the rest is byte-identical, WebAuthn L3 §5.8.1.1).
    @Test(arguments: W3CVectorTests.vectors)
    func clientDataSerializesInSpecOrder(_ vector: W3CVector) throws {
        let parsed = try CollectedClientData(bytes: vector.registration.expected.clientDataJSON_hex.bytes)
        let built = CollectedClientData(
            type: parsed.type, challenge: try Base64URL.decode(parsed.challenge), origin: parsed.origin,
            crossOrigin: parsed.crossOrigin ?? false, topOrigin: parsed.topOrigin)
        let text = String(decoding: parsed.bytes, as: UTF8.self)
        let prefix = String(decoding: built.bytes.dropLast(), as: UTF8.self)
        #expect(text.hasPrefix(prefix))
        #expect(parsed.otherMembers.isEmpty ? text == prefix + "}" : text.hasPrefix(prefix + ",\"extraData\":"))
    }

    @Test func clientDataEscapesAsCCDToString() throws {
        let built = CollectedClientData(type: .get, challenge: [1], origin: "https://a\"b\\c\u{1}\u{e9}")
        let text = String(decoding: built.bytes, as: UTF8.self)
        #expect(
            text == #"{"type":"webauthn.get","challenge":"AQ","origin":"https://a\"b\\c\u0001é","crossOrigin":false}"#)
        #expect(try CollectedClientData(bytes: built.bytes).origin == "https://a\"b\\c\u{1}\u{e9}")
        let astral = CollectedClientData(
            type: .create, challenge: [], origin: "https://x", crossOrigin: true, topOrigin: "\u{1F}\u{7F}😀\u{2028}")
        #expect(
            String(decoding: astral.bytes, as: UTF8.self)
                == "{\"type\":\"webauthn.create\",\"challenge\":\"\",\"origin\":\"https://x\",\"crossOrigin\":true,"
                + "\"topOrigin\":\"\\u001f\u{7F}😀\u{2028}\"}")
        #expect(try CollectedClientData(bytes: astral.bytes).topOrigin == "\u{1F}\u{7F}😀\u{2028}")
    }

    @Test func mutatedStructuresNeverCrash() throws {
        var random = SplitMix64(seed: 0x5eed_0f_3e11)
        let vectors = W3CVectorTests.vectors
        for round in 0..<3000 {
            let vector = vectors[round % vectors.count]
            var bytes = vector.registration.expected.attestationObject_hex.bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] = UInt8.random(in: 0...255, using: &random)
            }
            _ = try? AttestationObject(bytes: bytes)
            _ = try? AuthenticatorData(bytes: bytes.suffix(from: bytes.count / 2))
            _ = try? COSEKey(bytes: bytes.suffix(from: bytes.count / 3))
            _ = try? CollectedClientData(bytes: bytes)
        }
    }

    @Test func trailingBytesAfterAuthenticatorDataAreRefused() throws {
        let authData = try Hex.decode("bfabc37432958b063360d3ad6461c9c4735ae7f8edd46592a5e0f01452b2e4b50d00000000")
        #expect(throws: WebAuthnError(.malformedAuthenticatorData, "")) { try AuthenticatorData(bytes: authData + [0]) }
        let error = try #require(throws: WebAuthnError.self) { try AuthenticatorData(bytes: authData.prefix(36)) }
        #expect(error.offset == 33)
    }
}
