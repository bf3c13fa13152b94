import TestSupport
import Testing
import WebAuthn

@Suite struct CryptoSigningKeyTests {
    @Test(arguments: [COSEAlgorithm.es256, .eddsa])
    func signThenVerify(algorithm: COSEAlgorithm) throws {
        let key = try SigningKey.generate(algorithm)
        let message = Array("authenticatorData || clientDataHash".utf8)
        let signature = try key.signature(for: message)
        #expect(key.algorithm == algorithm)
        #expect(key.publicKey.algorithm == algorithm)
        #expect(try key.publicKey.isValidSignature(signature, for: message))
        #expect(try !key.publicKey.isValidSignature(signature, for: flippingBit(message)))
        #expect(try !key.publicKey.isValidSignature(flippingBit(signature, at: signature.count - 1), for: message))
        #expect(try !SigningKey.generate(algorithm).publicKey.isValidSignature(signature, for: message))
    }

    @Test func es256SignaturesAreDERAndEdDSASignaturesAre64Bytes() throws {
        let ecdsa = try SigningKey.generate(.es256).signature(for: [1, 2, 3])
        #expect(ecdsa.first == 0x30)
        #expect(Int(ecdsa[1]) == ecdsa.count - 2)
        #expect(try SigningKey.generate(.eddsa).signature(for: [1, 2, 3]).count == 64)
    }

    @Test(arguments: [COSEAlgorithm.es384, .es512, .rs384, .rs1, .ps512])
    func onlyES256EdDSARS256AndPS256Sign(algorithm: COSEAlgorithm) {
        #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) { try SigningKey.generate(algorithm) }
        #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) {
            try SigningKey(rawRepresentation: [UInt8](repeating: 1, count: 32), algorithm: algorithm)
        }
    }

    @Test(arguments: [COSEAlgorithm.rs256, .ps256])
    func rsaKeysAreMadeButNeverFromRawBytes(algorithm: COSEAlgorithm) throws {
        let key = try SigningKey.generate(algorithm)
        guard case .rsa(let n, let e) = key.publicKey.parameters else {
            Issue.record("not RSA")
            return
        }
        #expect(n.count == 256 && e == [1, 0, 1])
        #expect(try key.publicKey.isValidSignature(key.signature(for: [1, 2, 3]), for: [1, 2, 3]))
        #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) {
            try SigningKey(rawRepresentation: [UInt8](repeating: 1, count: 32), algorithm: algorithm)
        }
    }

    /// W3C WebAuthn L3 test vector "ES256 Credential with No Attestation".
    @Test func w3cNoneES256PrivateKeyGivesItsPublicKeyAndVerifiesItsAssertion() throws {
        let vector = try W3CVector.load("none-es256.json")
        let d = try #require(vector.registration.inputs.credential_private_key_hex).bytes
        let key = try SigningKey(rawRepresentation: d, algorithm: .es256)
        let expected = try vector.credentialPublicKey()
        #expect(key.publicKey == expected)
        let authentication = try #require(vector.authentication)
        let message = authentication.derived.signed_data_hex.bytes
        #expect(try expected.isValidSignature(authentication.expected.signature_hex.bytes, for: message))
        #expect(try expected.isValidSignature(key.signature(for: message), for: message))
    }

    /// RFC 9052 Appendix C.7: each P-256 private key `d` gives the published `x`, `y`.
    @Test(arguments: try Vectors.load(COSEKeySet.self, "cose/rfc9052-c7-keys.json").keys)
    func rfc9052KeysFromPrivateScalar(key vector: COSEKeyVector) throws {
        let key = try SigningKey(rawRepresentation: hex(vector.d_hex), algorithm: .es256)
        #expect(
            key.publicKey
                == (try COSEKey(checking: .es256, .ec2(curve: .p256, x: hex(vector.x_hex), y: hex(vector.y_hex)))))
    }

    @Test func privateScalarOutOfRangeIsInvalid() throws {
        let order = try hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        let invalid = WebAuthnError(.invalidKey, "")
        for d in [[UInt8](repeating: 0, count: 32), order, [UInt8](repeating: 0xff, count: 32)] {
            #expect(throws: invalid) { try SigningKey(rawRepresentation: d, algorithm: .es256) }
        }
        var belowOrder = order
        belowOrder[31] -= 1
        _ = try SigningKey(rawRepresentation: belowOrder, algorithm: .es256)
        #expect(throws: invalid) {
            try SigningKey(rawRepresentation: [UInt8](repeating: 1, count: 31), algorithm: .es256)
        }
        #expect(throws: invalid) {
            try SigningKey(rawRepresentation: [UInt8](repeating: 1, count: 33), algorithm: .eddsa)
        }
    }

    /// RFC 8032 §7.1 TEST 1: the Ed25519 seed gives the published public key and signature.
    @Test func ed25519RFC8032Test1() throws {
        let key = try SigningKey(
            rawRepresentation: hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"),
            algorithm: .eddsa)
        #expect(
            key.publicKey
                == (try COSEKey(
                    checking: .eddsa,
                    .okp(curve: .ed25519, x: hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")))))
        #expect(
            try key.signature(for: [])
                == hex(
                    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
                ))
    }

    @Test(arguments: [COSEAlgorithm.es256, .eddsa])
    func sealedPKCS8RoundTrip(algorithm: COSEAlgorithm) throws {
        let key = try SigningKey.generate(algorithm)
        let sealingKey = SecretKey.random()
        let aad = Array("credential id".utf8)
        let sealed = try key.sealedPKCS8(using: sealingKey, authenticating: aad)
        let opened = try SigningKey(sealedPKCS8: sealed, using: sealingKey, authenticating: aad)
        #expect(opened.algorithm == algorithm)
        #expect(opened.publicKey == key.publicKey)
        let message: [UInt8] = [9, 8, 7]
        #expect(try key.publicKey.isValidSignature(opened.signature(for: message), for: message))

        let failure = WebAuthnError(.decryptionFailed, "")
        #expect(throws: failure) {
            try SigningKey(sealedPKCS8: sealed, using: SecretKey.random(), authenticating: aad)
        }
        #expect(throws: failure) { try SigningKey(sealedPKCS8: sealed, using: sealingKey, authenticating: [UInt8]()) }
        #expect(throws: failure) {
            try SigningKey(sealedPKCS8: flippingBit(sealed, at: 20), using: sealingKey, authenticating: aad)
        }
        #expect(throws: failure) {
            try SigningKey(sealedPKCS8: sealed.dropLast(), using: sealingKey, authenticating: aad)
        }
    }

    @Test func sealedGarbageIsAnInvalidKey() throws {
        let sealingKey = SecretKey.random()
        let sealed = try AESGCM.seal(Array("not a PKCS#8 key".utf8), using: sealingKey, authenticating: [])
        #expect(throws: WebAuthnError(.invalidKey, "")) {
            try SigningKey(sealedPKCS8: sealed, using: sealingKey, authenticating: [UInt8]())
        }
    }

    @Test(arguments: [COSEAlgorithm.es256, .eddsa])
    func neverPrintsKeyBytes(algorithm: COSEAlgorithm) throws {
        let raw = try hex("6e68e7a58484a3264f66b77f5d6dc5bc36a47085b615c9727ab334e8c369c2ee")
        let key = try SigningKey(rawRepresentation: raw, algorithm: algorithm)
        var dumped = ""
        dump(key, to: &dumped)
        let texts = [key.description, key.debugDescription, String(reflecting: key), String(describing: key), dumped]
        for text in texts {
            #expect(!text.lowercased().contains(Hex.encode(raw.prefix(6))))
            #expect(!text.lowercased().contains(Hex.encode(raw.suffix(6))))
        }
        #expect(key.description == "SigningKey(\(algorithm), <redacted>)")
        #expect(Mirror(reflecting: key).children.isEmpty)
    }
}
