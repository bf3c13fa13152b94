import Testing
import WebAuthn

@Suite struct CryptoKeyAgreementTests {
    /// A P-256 public key from its coordinates, labelled as CTAP 2.1 labels key-agreement keys.
    private func p256(x: String, y: String) throws -> COSEKey {
        try COSEKey(cbor: [1: 2, 3: -25, -1: 1, -2: .bytes(hex(x)), -3: .bytes(hex(y))])
    }

    /// RFC 5903 §8.1 (256-bit random ECP group): both public keys from their scalars, and the
    /// same Z from either side.
    @Test func rfc5903Section8_1() throws {
        let initiator = try KeyAgreementPrivateKey(
            rawRepresentation: hex("c88f01f510d9ac3f70a292daa2316de544e9aab8afe84049c62a9c57862d1433"))
        let responder = try KeyAgreementPrivateKey(
            rawRepresentation: hex("c6ef9c5d78ae012a011164acb397ce2088685d8f06bf9be0b283ab46476bee53"))
        let gi = try p256(
            x: "dad0b65394221cf9b051e1feca5787d098dfe637fc90b9ef945d0c3772581180",
            y: "5271a0461cdb8252d61f1c456fa3e59ab1f45b33accf5f58389e0577b8990bb3")
        let gr = try p256(
            x: "d12dfb5289c8d4f81208b70270398c342296970a0bccb74c736fc7554494bf63",
            y: "56fbf3ca366cc23e8157854c13c58d6aac23f046ada30f8353e74f33039872ab")
        #expect(initiator.publicKey == gi)
        #expect(responder.publicKey == gr)
        let z = try hex("d6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de")
        #expect(try initiator.sharedSecret(with: gr) == z)
        #expect(try responder.sharedSecret(with: gi) == z)
    }

    /// NIST CAVS 14.1 ECC CDH primitive (SP 800-56A §5.7.1.2), P-256, COUNT = 0.
    @Test func nistCAVSCount0() throws {
        let key = try KeyAgreementPrivateKey(
            rawRepresentation: hex("7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534"))
        let peer = try p256(
            x: "700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287",
            y: "db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac")
        #expect(
            try key.sharedSecret(with: peer)
                == hex("46fc62106420ff012e54a434fbdd2d25ccc5852060561e68040dd7778997bd7b"))
    }

    @Test func generatedKeysAgreeAndLabelThemselvesAsCTAPSays() throws {
        let first = try KeyAgreementPrivateKey.generate()
        let second = try KeyAgreementPrivateKey.generate()
        #expect(first.publicKey.algorithm == .ecdhESHKDF256)
        #expect(first.publicKey.keyType == .ec2)
        #expect(first.publicKey.curve == .p256)
        #expect(try COSEKey(bytes: first.publicKey.bytes) == first.publicKey)
        let z = try first.sharedSecret(with: second.publicKey)
        #expect(z.count == 32)
        #expect(try second.sharedSecret(with: first.publicKey) == z)
    }

    /// A point off the curve (y with its last bit flipped) and (0, 0) are refused, so no
    /// invalid-curve attack can learn the scalar.
    @Test func pointsOffTheCurveAreRefused() throws {
        let key = try KeyAgreementPrivateKey.generate()
        guard case .ec2(_, let x, let y) = try KeyAgreementPrivateKey.generate().publicKey.parameters else {
            Issue.record("not an EC2 key")
            return
        }
        let offCurve = try COSEKey(cbor: [1: 2, 3: -25, -1: 1, -2: .bytes(x), -3: .bytes(flippingBit(y, at: 31))])
        #expect(throws: WebAuthnError(.invalidKey, "")) { try key.sharedSecret(with: offCurve) }
        let zero = [UInt8](repeating: 0, count: 32)
        let origin = try COSEKey(cbor: [1: 2, 3: -25, -1: 1, -2: .bytes(zero), -3: .bytes(zero)])
        #expect(throws: WebAuthnError(.invalidKey, "")) { try key.sharedSecret(with: origin) }
    }

    @Test func keysOnOtherCurvesAreRefused() throws {
        let key = try KeyAgreementPrivateKey.generate()
        for algorithm in [COSEAlgorithm.es384, .eddsa] {
            let other = try SigningKey.generateForTesting(algorithm).publicKey
            #expect(throws: WebAuthnError(.invalidKey, "")) { try key.sharedSecret(with: other) }
        }
    }

    @Test(arguments: [0, 31, 33])
    func rawKeysOfTheWrongLengthAreRefused(length: Int) {
        #expect(throws: WebAuthnError(.invalidKey, "")) {
            try KeyAgreementPrivateKey(rawRepresentation: [UInt8](repeating: 1, count: length))
        }
    }

    /// 0 and the group order n are not private keys (SEC 1 §3.2.1).
    @Test func scalarsOutsideTheGroupAreRefused() throws {
        for scalar in [
            [UInt8](repeating: 0, count: 32),
            try hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"),
        ] {
            #expect(throws: WebAuthnError(.invalidKey, "")) { try KeyAgreementPrivateKey(rawRepresentation: scalar) }
        }
    }

    @Test func neverPrintsTheScalar() throws {
        let scalar = try hex("c88f01f510d9ac3f70a292daa2316de544e9aab8afe84049c62a9c57862d1433")
        let key = try KeyAgreementPrivateKey(rawRepresentation: scalar)
        var dumped = ""
        dump(key, to: &dumped)
        for text in [key.description, key.debugDescription, String(reflecting: key), dumped] {
            #expect(!text.lowercased().contains(Hex.encode(scalar.prefix(8))))
        }
        #expect(key.description == "KeyAgreementPrivateKey(P-256, <redacted>)")
        #expect(Mirror(reflecting: key).children.isEmpty)
    }

    /// -25 labels key-agreement keys; it never signs or verifies, and is not a default.
    @Test func ecdhIsNotASignatureAlgorithm() throws {
        #expect(!COSEAlgorithm.ecdhESHKDF256.isSignatureAlgorithm)
        #expect(!COSEAlgorithm.signatureAlgorithms.contains(.ecdhESHKDF256))
        #expect(COSEAlgorithm.signatureAlgorithms.count == COSEAlgorithm.allCases.count - 2)
        #expect(!COSEAlgorithm.signatureAlgorithms.contains(.rs1))
        let publicKey = try KeyAgreementPrivateKey.generate().publicKey
        #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) { try publicKey.isValidSignature([1], for: [2]) }
        #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) { try SigningKey.generate(.ecdhESHKDF256) }
    }
}
