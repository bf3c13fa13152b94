import PasskeyAuthenticator
import Testing
import WebAuthn

@Suite struct PINUVAuthProtocolTests {
    @Test(arguments: PINUVAuthProtocol.allCases)
    func bothSidesAgreeOnTheSecret(_ pinUVAuthProtocol: PINUVAuthProtocol) throws {
        let authenticatorKey = try KeyAgreementPrivateKey.generate()
        let (platformPublicKey, platformSecret) = try pinUVAuthProtocol.encapsulate(peer: authenticatorKey.publicKey)
        #expect(platformPublicKey.algorithm == .ecdhESHKDF256)
        let authenticatorSecret = try pinUVAuthProtocol.decapsulate(peer: platformPublicKey, using: authenticatorKey)
        #expect(platformSecret.bytes == authenticatorSecret.bytes)
        #expect(platformSecret.bytes.count == (pinUVAuthProtocol == .one ? 32 : 64))
        #expect(authenticatorSecret.pinUVAuthProtocol == pinUVAuthProtocol)

        let message = [UInt8](repeating: 0xa5, count: 64)
        let ciphertext = try platformSecret.encrypt(message)
        #expect(ciphertext.count == (pinUVAuthProtocol == .one ? 64 : 80))
        #expect(try authenticatorSecret.decrypt(ciphertext) == message)
        let code = platformSecret.authenticate(ciphertext)
        #expect(code.count == (pinUVAuthProtocol == .one ? 16 : 32))
        #expect(authenticatorSecret.verify(code, for: ciphertext))
    }

    /// Protocol one's IV is zero, so equal plaintexts encrypt equally; protocol two's is fresh.
    @Test func ivs() throws {
        let peer = try KeyAgreementPrivateKey.generate().publicKey
        let block = [UInt8](repeating: 1, count: 16)
        let one = try PINUVAuthProtocol.one.encapsulate(peer: peer).sharedSecret
        #expect(try one.encrypt(block) == (try one.encrypt(block)))
        let two = try PINUVAuthProtocol.two.encapsulate(peer: peer).sharedSecret
        #expect(try two.encrypt(block) != (try two.encrypt(block)))
    }

    @Test(arguments: PINUVAuthProtocol.allCases)
    func verifyRefusesEveryChangeAndTruncation(_ pinUVAuthProtocol: PINUVAuthProtocol) throws {
        let secret = try pinUVAuthProtocol.encapsulate(peer: KeyAgreementPrivateKey.generate().publicKey).sharedSecret
        let message = Array("saltEnc".utf8)
        let code = secret.authenticate(message)
        #expect(secret.verify(code, for: message))
        #expect(!secret.verify(code, for: message + [0]))
        for index in code.indices {
            var changed = code
            changed[index] ^= 0x01
            #expect(!secret.verify(changed, for: message))
        }
        #expect(!secret.verify(code.dropLast(), for: message))
        #expect(!secret.verify(code + [0], for: message))
        #expect(!secret.verify([UInt8](), for: message))
    }

    @Test(arguments: PINUVAuthProtocol.allCases)
    func wrongLengthsAreRefused(_ pinUVAuthProtocol: PINUVAuthProtocol) throws {
        let secret = try pinUVAuthProtocol.encapsulate(peer: KeyAgreementPrivateKey.generate().publicKey).sharedSecret
        let failure = AuthenticatorError(.invalidLength, "")
        #expect(throws: failure) { try secret.encrypt([UInt8](repeating: 0, count: 17)) }
        // Protocol two's input is IV ‖ blocks: 15 bytes has no IV, 17 and 31 no whole blocks.
        for length in pinUVAuthProtocol == .one ? [1, 15, 17] : [0, 15, 17, 31] {
            #expect(throws: failure) { try secret.decrypt([UInt8](repeating: 0, count: length)) }
        }
        #expect(throws: failure) {
            try PINUVAuthSharedSecret(pinUVAuthProtocol, bytes: [UInt8](repeating: 0, count: 48))
        }
    }

    @Test(arguments: PINUVAuthProtocol.allCases)
    func offCurvePeersAreRefused(_ pinUVAuthProtocol: PINUVAuthProtocol) throws {
        #expect(throws: AuthenticatorError(.invalidParameter, "")) {
            try pinUVAuthProtocol.encapsulate(peer: offCurveKey())
        }
    }

    @Test func neverPrintsTheSecret() throws {
        let secret = try PINUVAuthProtocol.two.encapsulate(peer: KeyAgreementPrivateKey.generate().publicKey)
            .sharedSecret
        var dumped = ""
        dump(secret, to: &dumped)
        let fingerprint = Hex.encode(secret.bytes.prefix(8))
        for text in [secret.description, secret.debugDescription, String(reflecting: secret), dumped] {
            #expect(!text.lowercased().contains(fingerprint))
        }
        #expect(secret.description == "PINUVAuthSharedSecret(2, <redacted>)")
        #expect(Mirror(reflecting: secret).children.isEmpty)
    }
}

/// A P-256 key whose y-coordinate has its last bit flipped: not a point of the curve.
func offCurveKey() throws -> COSEKey {
    let valid = try KeyAgreementPrivateKey.generate().publicKey
    let x = try #require(valid.cbor[-2]?.bytesValue)
    var y = try #require(valid.cbor[-3]?.bytesValue)
    y[y.count - 1] ^= 0x01
    return try COSEKey(cbor: [1: 2, 3: -25, -1: 1, -2: .bytes(x), -3: .bytes(y)])
}
