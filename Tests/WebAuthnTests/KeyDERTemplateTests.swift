import Testing

@testable import WebAuthn

/// The DER templates must be exactly what OpenSSL writes, or the fast paths would silently
/// never apply (or, worse, disagree with OpenSSL).
@Suite struct KeyDERTemplateTests {
    @Test(arguments: [COSEAlgorithm.es256, .eddsa])
    func opensslsPKCS8MatchesTheTemplate(_ algorithm: COSEAlgorithm) throws {
        let key = try SigningKey.generate(algorithm)
        var der = try key.key.pkcs8()
        defer { secureZero(&der) }
        let (curve, raw) = try #require(KeyDERTemplate.rawPrivateKey(pkcs8: der))
        #expect(curve == (algorithm == .es256 ? .p256 : .ed25519))
        let rebuilt = try SigningKey(rawRepresentation: raw, algorithm: algorithm)
        #expect(rebuilt.publicKey == key.publicKey)
    }

    /// The PKCS#8 written from the raw key is OpenSSL's, byte for byte, and seals and opens.
    @Test(arguments: [COSEAlgorithm.es256, .eddsa])
    func theTemplatesPKCS8IsOpenSSLs(_ algorithm: COSEAlgorithm) throws {
        let key = try SigningKey.generate(algorithm)
        var raw = try key.key.rawPrivateKey(curve: try #require(key.publicKey.curve))
        var fromOpenSSL = try key.key.pkcs8()
        defer {
            secureZero(&raw)
            secureZero(&fromOpenSSL)
        }
        #expect(KeyDERTemplate.pkcs8(rawPrivateKey: raw, publicKey: key.publicKey.parameters) == fromOpenSSL)
        let sealingKey = SecretKey.random()
        let sealed = try key.sealedPKCS8(using: sealingKey, authenticating: [1, 2, 3])
        let opened = try SigningKey(sealedPKCS8: sealed, using: sealingKey, authenticating: [1, 2, 3])
        #expect(opened.publicKey == key.publicKey)
        let message = SecureRandom.bytes(64)
        #expect(try key.publicKey.isValidSignature(opened.signature(for: message), for: message))
    }

    @Test(arguments: [COSEAlgorithm.es256, .eddsa])
    func opensslsSPKIMatchesTheTemplate(_ algorithm: COSEAlgorithm) throws {
        let publicKey = try SigningKey.generate(algorithm).publicKey
        let fromOpenSSL = try EVPKey(publicKey: publicKey).spkiFromOpenSSL()
        #expect(KeyDERTemplate.spki(publicKey.parameters) == fromOpenSSL)
        #expect(KeyDERTemplate.parameters(spki: fromOpenSSL) == publicKey.parameters)
        #expect(try COSEKey(spki: fromOpenSSL, algorithm: algorithm) == publicKey)
    }

    @Test func otherDERIsLeftToOpenSSL() throws {
        let p384 = try SigningKey.generateForTesting(.es384, curve: .p384)
        #expect(KeyDERTemplate.spki(p384.publicKey.parameters) == nil)
        var der = try p384.key.pkcs8()
        defer { secureZero(&der) }
        #expect(KeyDERTemplate.rawPrivateKey(pkcs8: der) == nil)
        #expect(KeyDERTemplate.rawPrivateKey(pkcs8: Array(der.dropLast())) == nil)
    }
}
