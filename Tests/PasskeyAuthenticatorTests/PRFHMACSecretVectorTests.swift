import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// `Vectors/w3c/prf-hmac-secret.json`: WebAuthn L3 §16 "prf extension" over CTAP 2.1
/// hmac-secret, PIN/UV auth protocols one and two.
struct PRFHMACSecretVector: Decodable {
    struct Shared: Decodable {
        let platform_key_agreement_private_key: HexBytes
        let authenticator_key_agreement_public_key: COSEKeyLabels
        let authenticator_cred_random: HexBytes
    }

    struct Case: Decodable, CustomTestStringConvertible {
        let title: String
        let values: Values

        var testDescription: String { title }

        /// Protocol one's vector is the one whose shared secret is 32 bytes.
        var pinUVAuthProtocol: PINUVAuthProtocol { values.shared_secret.bytes.count == 32 ? .one : .two }
    }

    struct Values: Decodable {
        let prf_eval_first: HexBytes
        let prf_eval_second: HexBytes?
        let shared_secret: HexBytes
        let salt1: HexBytes
        let salt2: HexBytes?
        let salt_enc: HexBytes
        let output1: HexBytes
        let output2: HexBytes?
        let output_enc: HexBytes
        let prf_results_first: HexBytes
        let prf_results_second: HexBytes?
    }

    let shared: Shared
    let cases: [Case]

    static func load() throws -> PRFHMACSecretVector {
        try Vectors.load(PRFHMACSecretVector.self, "w3c/prf-hmac-secret.json")
    }
}

@Suite struct PRFHMACSecretVectorTests {
    static let vector = Result { try PRFHMACSecretVector.load() }

    @Test func allThreeCasesAreRead() throws {
        let vector = try Self.vector.get()
        #expect(vector.cases.count == 3)
        #expect(vector.cases.map(\.pinUVAuthProtocol) == [.two, .two, .one])
    }

    @Test(arguments: try vector.get().cases)
    func platformSide(_ testCase: PRFHMACSecretVector.Case) throws {
        let shared = try Self.vector.get().shared
        let values = testCase.values
        let pinUVAuthProtocol = testCase.pinUVAuthProtocol

        // The shared secret: ECDH of the platform's key with the authenticator's, then the KDF.
        let platformKey = try KeyAgreementPrivateKey(rawRepresentation: shared.platform_key_agreement_private_key.bytes)
        let authenticatorKey = try COSEKey(cbor: shared.authenticator_key_agreement_public_key.cbor)
        let sharedSecret = try pinUVAuthProtocol.decapsulate(peer: authenticatorKey, using: platformKey)
        #expect(sharedSecret.bytes == values.shared_secret.bytes)

        // The prf inputs become the salts.
        let salt1 = HMACSecret.salt(forPRFInput: values.prf_eval_first.bytes)
        #expect(salt1 == values.salt1.bytes)
        let salt2 = values.prf_eval_second.map { HMACSecret.salt(forPRFInput: $0.bytes) }
        #expect(salt2 == values.salt2?.bytes)

        // saltEnc, byte for byte: protocol two's IV is its first block, protocol one's is zero.
        let iv = pinUVAuthProtocol == .two ? Array(values.salt_enc.bytes.prefix(16)) : nil
        let input = try HMACSecret.input(
            salt1: salt1, salt2: salt2, keyAgreement: platformKey.publicKey, sharedSecret: sharedSecret, iv: iv)
        #expect(input.saltEnc == values.salt_enc.bytes)
        #expect(input.saltAuth == sharedSecret.authenticate(values.salt_enc.bytes))
        #expect(input.saltAuth.count == (pinUVAuthProtocol == .one ? 16 : 32))
        #expect(input.pinUVAuthProtocol == pinUVAuthProtocol)
        #expect(try HMACSecretInput(cbor: CBOR(decoding: input.cbor.encoded())) == input)

        // The platform reads the authenticator's output back as the prf results.
        let results = try HMACSecret.outputs(values.output_enc.bytes, sharedSecret: sharedSecret)
        #expect(results.first == values.prf_results_first.bytes)
        #expect(results.second == values.prf_results_second?.bytes)
    }

    @Test(arguments: try vector.get().cases)
    func authenticatorSide(_ testCase: PRFHMACSecretVector.Case) throws {
        let shared = try Self.vector.get().shared
        let values = testCase.values
        let pinUVAuthProtocol = testCase.pinUVAuthProtocol
        // The authenticator's private key is not in the vector: start from the secret it derives.
        let sharedSecret = try PINUVAuthSharedSecret(pinUVAuthProtocol, bytes: values.shared_secret.bytes)
        let credRandom = try SecretKey(bytes: shared.authenticator_cred_random.bytes)

        let salts = try sharedSecret.decrypt(values.salt_enc.bytes)
        #expect(salts == values.salt1.bytes + (values.salt2?.bytes ?? []))
        #expect(
            HMACSHA256.authenticationCode(for: values.salt1.bytes, key: shared.authenticator_cred_random.bytes)
                == values.output1.bytes)
        if let salt2 = values.salt2, let output2 = values.output2 {
            #expect(
                HMACSHA256.authenticationCode(for: salt2.bytes, key: shared.authenticator_cred_random.bytes)
                    == output2.bytes)
        }

        let input = HMACSecretInput(
            keyAgreement: try KeyAgreementPrivateKey(
                rawRepresentation: shared.platform_key_agreement_private_key.bytes
            ).publicKey,
            saltEnc: values.salt_enc.bytes, saltAuth: sharedSecret.authenticate(values.salt_enc.bytes),
            pinUVAuthProtocol: pinUVAuthProtocol)
        let iv = pinUVAuthProtocol == .two ? Array(values.output_enc.bytes.prefix(16)) : nil
        let output = try HMACSecret.output(for: input, sharedSecret: sharedSecret, credRandom: credRandom, iv: iv)
        #expect(output == values.output_enc.bytes)
        #expect(try sharedSecret.decrypt(output) == values.output1.bytes + (values.output2?.bytes ?? []))
    }
}
