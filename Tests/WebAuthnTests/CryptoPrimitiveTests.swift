import Testing
import WebAuthn

@Suite struct CryptoDigestTests {
    /// FIPS 180-2 Appendix B.1 and the empty string.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ])
    func sha256(message: String, digest: String) throws {
        #expect(SHA256Digest.hash(Array(message.utf8)) == (try hex(digest)))
        #expect(SHA256Digest.hash(Array(message.utf8)[...]) == (try hex(digest)))
    }

    /// RFC 4231 §4.2 (test case 1) and §4.3 (test case 2).
    @Test func hmacRFC4231() throws {
        #expect(
            HMACSHA256.authenticationCode(for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20))
                == (try hex("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")))
        #expect(
            HMACSHA256.authenticationCode(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
                == (try hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")))
    }

    /// RFC 5869 Appendix A.1 (test case 1) and A.3 (test case 3: empty salt and info).
    @Test func hkdfRFC5869() throws {
        #expect(
            KDF.hkdfSHA256(
                inputKeyMaterial: [UInt8](repeating: 0x0b, count: 22), salt: try hex("000102030405060708090a0b0c"),
                info: try hex("f0f1f2f3f4f5f6f7f8f9"), length: 42)
                == (try hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")))
        #expect(
            KDF.hkdfSHA256(inputKeyMaterial: [UInt8](repeating: 0x0b, count: 22), salt: [], info: [], length: 42)
                == (try hex("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")))
    }

    /// RFC 7914 §12, second vector ("password", "NaCl", N = 1024, r = 8, p = 16, 64 bytes).
    @Test func scryptRFC7914() throws {
        let expected = try hex(
            "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
        )
        let password = Array("password".utf8)
        let salt = Array("NaCl".utf8)
        #expect(try KDF.scrypt(password: password, salt: salt, n: 1024, r: 8, p: 16, length: 64) == expected)
        let key = try KDF.scrypt(password: password, salt: salt, n: 1024, r: 8, p: 16)
        key.withUnsafeBytes { #expect(Array($0) == Array(expected.prefix(32))) }
    }

    @Test(arguments: [0, 1, 3, 1000] as [UInt64])
    func scryptRejectsCostThatIsNotAPowerOfTwo(n: UInt64) {
        #expect(throws: WebAuthnError(.invalidKey, "")) {
            try KDF.scrypt(password: Array("pw".utf8), salt: Array("salt".utf8), n: n, r: 8, p: 1)
        }
    }

    @Test func scryptInteractiveCostFitsTheMemoryCeiling() throws {
        _ = try KDF.scrypt(password: Array("pw".utf8), salt: Array("salt".utf8), n: 1 << 15, r: 8, p: 1)
    }

    @Test func secureRandomGivesFreshBytes() {
        #expect(SecureRandom.bytes(0).isEmpty)
        let first = SecureRandom.bytes(32)
        #expect(first.count == 32)
        #expect(first != SecureRandom.bytes(32))
    }
}

@Suite struct CryptoSymmetricTests {
    @Test(arguments: [0, 16, 31, 33, 64])
    func symmetricKeyRejectsWrongLength(count: Int) {
        #expect(throws: WebAuthnError(.invalidKey, "")) {
            try SecretKey(bytes: [UInt8](repeating: 7, count: count))
        }
    }

    @Test func symmetricKeyKeepsItsBytesAndNeverPrintsThem() throws {
        let bytes = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 0xA1) }
        let key = try SecretKey(bytes: bytes)
        key.withUnsafeBytes { #expect(Array($0) == bytes) }
        var dumped = ""
        dump(key, to: &dumped)
        for text in [key.description, key.debugDescription, String(reflecting: key), "\(key)", dumped] {
            #expect(!text.lowercased().contains(Hex.encode(bytes.prefix(8))))
        }
        #expect(key.description == "<redacted>")
        #expect(Mirror(reflecting: key).children.isEmpty)
    }

    @Test func randomKeysDiffer() {
        let first = SecretKey.random().withUnsafeBytes { Array($0) }
        let second = SecretKey.random().withUnsafeBytes { Array($0) }
        #expect(first.count == 32)
        #expect(first != second)
    }

    @Test(arguments: [0, 1, 16, 1000])
    func sealOpenRoundTrip(length: Int) throws {
        let key = SecretKey.random()
        let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
        let aad = Array("credential-id".utf8)
        let sealed = try AESGCM.seal(plaintext, using: key, authenticating: aad)
        #expect(sealed.count == 12 + length + 16)
        #expect(try AESGCM.open(sealed, using: key, authenticating: aad) == plaintext)
        #expect(try AESGCM.open(sealed[...], using: key, authenticating: aad[...]) == plaintext)
    }

    @Test func everySealUsesAFreshNonce() throws {
        let key = SecretKey.random()
        let first = try AESGCM.seal([1, 2, 3], using: key, authenticating: [])
        let second = try AESGCM.seal([1, 2, 3], using: key, authenticating: [])
        #expect(first.prefix(12) != second.prefix(12))
        #expect(first != second)
    }

    @Test func openRejectsWrongKeyAADTamperingAndTruncation() throws {
        let key = SecretKey.random()
        let aad = Array("aad".utf8)
        let sealed = try AESGCM.seal(Array("secret".utf8), using: key, authenticating: aad)
        let failure = WebAuthnError(.decryptionFailed, "")
        #expect(throws: failure) { try AESGCM.open(sealed, using: SecretKey.random(), authenticating: aad) }
        #expect(throws: failure) { try AESGCM.open(sealed, using: key, authenticating: Array("aad!".utf8)) }
        #expect(throws: failure) { try AESGCM.open(sealed, using: key, authenticating: []) }
        for index in [0, 11, 12, sealed.count - 17, sealed.count - 16, sealed.count - 1] {
            #expect(throws: failure) {
                try AESGCM.open(flippingBit(sealed, at: index), using: key, authenticating: aad)
            }
        }
        for length in [0, 1, 27, sealed.count - 1] {
            #expect(throws: failure) { try AESGCM.open(sealed.prefix(length), using: key, authenticating: aad) }
        }
    }
}
