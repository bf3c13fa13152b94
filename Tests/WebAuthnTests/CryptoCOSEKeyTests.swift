import TestSupport
import Testing
import WebAuthn

@Suite struct CryptoCOSEKeyTests {
    /// cose-wg/Examples `ecdsa-sig-01` and RFC 8392 A.3: ES256 over the COSE_Sign1 ToBeSigned bytes.
    @Test(arguments: try Vectors.load(COSESign1Examples.self, "cose/cose-sign1-es256-examples.json").examples)
    func coseSign1ES256(example: COSESign1Examples.Example) throws {
        let key = try COSEKey(
            checking: .es256, .ec2(curve: .p256, x: hex(example.key.x_hex), y: hex(example.key.y_hex)))
        let toBeSigned = try hex(example.to_be_signed_hex)
        let der = try hex(example.derived_signature_der_hex)
        #expect(derSignature(rawRS: try hex(example.signature_raw_r_s_hex)) == der)
        #expect(try key.isValidSignature(der, for: toBeSigned))
        #expect(try !key.isValidSignature(der, for: flippingBit(toBeSigned, at: toBeSigned.count - 1)))
        #expect(try !key.isValidSignature(flippingBit(der, at: 10), for: toBeSigned))
        // COSE's raw r ‖ s is not WebAuthn's DER form: malformed, so simply not valid.
        #expect(try !key.isValidSignature(hex(example.signature_raw_r_s_hex), for: toBeSigned))
        #expect(try !key.isValidSignature([], for: toBeSigned))
    }

    /// W3C WebAuthn L3 packed vectors: each assertion verifies with its credential public key.
    @Test(arguments: ["packed-es256", "packed-es384", "packed-es512", "packed-rs256", "packed-eddsa", "packed-ed448"])
    func w3cAssertionSignatures(name: String) throws {
        let vector = try W3CVector.load("\(name).json")
        let key = try vector.credentialPublicKey()
        let authentication = try #require(vector.authentication)
        let signature = authentication.expected.signature_hex.bytes
        let message = authentication.derived.signed_data_hex.bytes
        #expect(try key.isValidSignature(signature, for: message))
        #expect(try !key.isValidSignature(signature, for: flippingBit(message)))
        #expect(try !key.isValidSignature(flippingBit(signature, at: signature.count - 1), for: message))
        #expect(try COSEKey(spki: key.spki, algorithm: key.algorithm) == key)
    }

    @Test(
        arguments: [
            (COSEAlgorithm.es256, nil), (.es384, nil), (.es512, nil), (.eddsa, .ed25519), (.eddsa, .ed448),
            (.rs256, nil), (.rs384, nil), (.rs512, nil), (.ps256, nil), (.ps384, nil), (.ps512, nil),
        ] as [(COSEAlgorithm, COSECurve?)])
    func everyAlgorithmVerifiesAndSPKIRoundTrips(algorithm: COSEAlgorithm, curve: COSECurve?) throws {
        let key = try SigningKey.generateForTesting(algorithm, curve: curve)
        let publicKey = key.publicKey
        #expect(publicKey.algorithm == algorithm)
        if let curve {
            #expect(publicKey.curve == curve)
        }
        let message = Array("every algorithm".utf8)
        let signature = try key.signature(for: message)
        #expect(try publicKey.isValidSignature(signature, for: message))
        #expect(try !publicKey.isValidSignature(signature, for: flippingBit(message)))
        #expect(try !publicKey.isValidSignature(flippingBit(signature, at: signature.count / 2), for: message))
        #expect(try !publicKey.isValidSignature([UInt8](repeating: 0, count: 8), for: message))

        let spki = try publicKey.spki
        #expect(try COSEKey(spki: spki, algorithm: algorithm) == publicKey)
        #expect(try COSEKey(spki: spki, algorithm: nil).parameters == publicKey.parameters)
        #expect(throws: WebAuthnError(.invalidKey, "")) { try COSEKey(spki: spki + [0], algorithm: algorithm) }
        #expect(throws: WebAuthnError(.invalidKey, "")) { try COSEKey(spki: spki.dropLast(), algorithm: algorithm) }
    }

    @Test func rsaPaddingIsPartOfTheAlgorithm() throws {
        let key = try SigningKey.generateForTesting(.ps256)
        let message: [UInt8] = [1, 2, 3]
        let pss = try key.signature(for: message)
        let asPKCS1 = try COSEKey(checking: .rs256, key.publicKey.parameters)
        #expect(try !asPKCS1.isValidSignature(pss, for: message))
        let asPS384 = try COSEKey(checking: .ps384, key.publicKey.parameters)
        #expect(try !asPS384.isValidSignature(pss, for: message))
    }

    @Test func rsaParametersHaveNoLeadingZeros() throws {
        let key = try SigningKey.generateForTesting(.rs256).publicKey
        guard case .rsa(let n, let e) = key.parameters else {
            Issue.record("not an RSA key")
            return
        }
        #expect(n.count == 256)
        #expect(n.first != 0)
        #expect(e == [0x01, 0x00, 0x01])
    }

    @Test func keyWithoutAlgorithmCannotVerify() throws {
        let key = try SigningKey.generate(.es256).publicKey
        let bare = try COSEKey(checking: nil, key.parameters)
        #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) { try bare.isValidSignature([], for: []) }
    }

    @Test func algorithmMustFitTheKey() throws {
        let ec = try SigningKey.generate(.es256).publicKey
        #expect(throws: WebAuthnError(.malformedCOSEKey, "")) { try COSEKey(checking: .rs256, ec.parameters) }
        #expect(throws: WebAuthnError(.malformedCOSEKey, "")) { try COSEKey(spki: ec.spki, algorithm: .rs256) }
        #expect(throws: WebAuthnError(.malformedCOSEKey, "")) { try COSEKey(spki: ec.spki, algorithm: .es384) }
    }

    @Test func pointOffTheCurveIsInvalid() throws {
        guard case .ec2(_, let x, let y) = try SigningKey.generate(.es256).publicKey.parameters else {
            Issue.record("not an EC2 key")
            return
        }
        let offCurve = try COSEKey(checking: .es256, .ec2(curve: .p256, x: x, y: flippingBit(y, at: 31)))
        #expect(throws: WebAuthnError(.invalidKey, "")) { try offCurve.isValidSignature([], for: []) }
        #expect(throws: WebAuthnError(.invalidKey, "")) { try offCurve.spki }
    }

    @Test func compressedPointSPKIGivesFullCoordinates() throws {
        // RFC 9052 C.7 key "11" as an SPKI with a compressed point (02/03 ‖ x).
        let x = try hex("bac5b11cad8f99f9c72b05cf4b9e26d244dc189f745228255a219a86d6a09eff")
        let y = try hex("20138bf82dc1b6d562be0fa54ab7804a3a64b6d72ccfed6b6fb6ed28bbfc117e")
        let prefix = try hex("3039301306072a8648ce3d020106082a8648ce3d030107032200")
        let spki = prefix + [0x02 | (y[31] & 1)] + x
        let key = try COSEKey(spki: spki, algorithm: .es256)
        #expect(key == (try COSEKey(checking: .es256, .ec2(curve: .p256, x: x, y: y))))
    }

    @Test(arguments: [[], [0x30], [0x30, 0x00], Array("not DER at all".utf8)] as [[UInt8]])
    func garbageSPKIIsAnInvalidKey(bytes: [UInt8]) {
        #expect(throws: WebAuthnError(.invalidKey, "")) { try COSEKey(spki: bytes, algorithm: nil) }
    }

    /// DER `Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` from COSE's raw `r ‖ s`
    /// (short-form lengths, enough for P-256).
    private func derSignature(rawRS: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop(while: { $0 == 0 }))
            if value.first.map({ $0 >= 0x80 }) ?? true {
                value.insert(0, at: 0)
            }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(rawRS.prefix(rawRS.count / 2)) + integer(rawRS.suffix(rawRS.count / 2))
        return [0x30, UInt8(body.count)] + body
    }
}
