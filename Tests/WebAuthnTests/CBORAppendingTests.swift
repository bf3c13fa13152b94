import Testing

@testable import WebAuthn

/// What is written directly (heads, COSE keys, attestation objects) is byte for byte what the
/// CBOR encoder writes for the same value.
@Suite struct CBORAppendingTests {
    static let arguments: [UInt64] = [
        0, 1, 23, 24, 255, 256, 65535, 65536, 0xFFFF_FFFF, 0x1_0000_0000, UInt64(Int.max), .max,
    ]

    @Test(arguments: arguments)
    func integersAndHeadsAsTheEncoderWritesThem(argument: UInt64) {
        for (major, value) in [(UInt8(0), CBOR.unsigned(argument)), (1, .negative(argument))] {
            var bytes: [UInt8] = []
            CBOR.appendHead(major: major, argument, to: &bytes)
            #expect(bytes == value.encoded())
        }
        if argument <= UInt64(Int.max) {
            for integer in [Int(argument), -1 - Int(argument)] {
                var bytes: [UInt8] = []
                CBOR.append(integer: integer, to: &bytes)
                #expect(bytes == CBOR(integer).encoded())
            }
        }
    }

    @Test(arguments: [0, 1, 23, 24, 255, 256, 65535, 65536])
    func stringsAsTheEncoderWritesThem(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
        var written: [UInt8] = []
        CBOR.append(bytes: bytes, to: &written)
        #expect(written == CBOR.bytes(bytes).encoded())
        let text = String(repeating: "é", count: length / 2) + String(repeating: "a", count: length % 2)
        written = []
        CBOR.append(text: text.utf8, to: &written)
        #expect(written == CBOR.text(text).encoded())
    }

    @Test(
        arguments: [
            (COSEAlgorithm.es256, nil), (.es384, nil), (.es512, nil), (.eddsa, .ed25519), (.eddsa, .ed448),
            (.rs256, nil), (.ps256, nil),
        ] as [(COSEAlgorithm, COSECurve?)])
    func coseKeysAsTheEncoderWritesThem(algorithm: COSEAlgorithm, curve: COSECurve?) throws {
        let key = try SigningKey.generateForTesting(algorithm, curve: curve).publicKey
        #expect(key.bytes == key.cbor.encoded())
        #expect(try COSEKey(bytes: key.bytes) == key)
        let bare = try COSEKey(checking: nil, key.parameters)
        #expect(bare.bytes == bare.cbor.encoded())
    }

    /// `none`, `packed` self attestation, and authenticator data long enough for a two-byte length.
    @Test(arguments: [16, 1023])
    func attestationObjectsAsTheEncoderWritesThem(credentialIDLength: Int) throws {
        let key = try SigningKey.generate(.es256)
        let authenticatorData = AuthenticatorData(
            rpIDHash: SHA256Digest.hash(Array("example.org".utf8)), flags: [.userPresent, .userVerified],
            signCount: 7,
            attestedCredentialData: try AttestedCredentialData(
                aaguid: .zero, credentialID: SecureRandom.bytes(credentialIDLength), publicKey: key.publicKey),
            extensions: ["credProtect": 2])
        let statements: [(AttestationFormat, CBOR)] = [
            (.none, .map([:])),
            (.packed, ["alg": CBOR(COSEAlgorithm.es256.rawValue), "sig": .bytes(SecureRandom.bytes(71))]),
        ]
        for (format, statement) in statements {
            let object = AttestationObject(format: format, statement: statement, authenticatorData: authenticatorData)
            let expected: CBOR = [
                "fmt": .text(format.rawValue), "attStmt": statement, "authData": .bytes(authenticatorData.bytes),
            ]
            #expect(object.bytes == expected.encoded())
            #expect(try AttestationObject(bytes: object.bytes) == object)
        }
    }
}
