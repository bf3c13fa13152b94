import PasskeyAuthenticator
import Testing
import WebAuthn

@Suite struct HMACSecretTests {
    /// One authenticator key, one credential seed, one valid request: each negative changes one
    /// thing.
    private struct Fixture {
        let authenticatorKey: KeyAgreementPrivateKey
        let credRandom = SecretKey.random()
        let salt1 = SecureRandom.bytes(32)
        let salt2 = SecureRandom.bytes(32)

        init() throws {
            authenticatorKey = try KeyAgreementPrivateKey.generate()
        }

        func request(_ pinUVAuthProtocol: PINUVAuthProtocol, two: Bool = true) throws -> (
            input: HMACSecretInput, sharedSecret: PINUVAuthSharedSecret
        ) {
            try HMACSecret.input(
                salt1: salt1, salt2: two ? salt2 : nil, authenticatorKeyAgreement: authenticatorKey.publicKey,
                pinUVAuthProtocol: pinUVAuthProtocol)
        }

        func output(_ input: HMACSecretInput) throws -> [UInt8] {
            try HMACSecret.output(for: input, keyAgreementKey: authenticatorKey, credRandom: credRandom)
        }

        func expected(_ salt: [UInt8]) -> [UInt8] {
            credRandom.withUnsafeBytes { HMACSHA256.authenticationCode(for: salt, key: $0) }
        }
    }

    @Test(arguments: PINUVAuthProtocol.allCases, [false, true])
    func roundTrip(_ pinUVAuthProtocol: PINUVAuthProtocol, twoSalts: Bool) throws {
        let fixture = try Fixture()
        let (input, sharedSecret) = try fixture.request(pinUVAuthProtocol, two: twoSalts)
        let sent = try HMACSecretInput(cbor: CBOR(decoding: input.cbor.encoded()))
        let outputs = try HMACSecret.outputs(fixture.output(sent), sharedSecret: sharedSecret)
        #expect(outputs.first == fixture.expected(fixture.salt1))
        #expect(outputs.second == (twoSalts ? fixture.expected(fixture.salt2) : nil))
    }

    /// The same salt gives the same output across requests (fresh key agreements), and another
    /// seed gives another.
    @Test func outputsDependOnTheSeedOnly() throws {
        let fixture = try Fixture()
        let first = try fixture.request(.two)
        let second = try fixture.request(.two)
        #expect(first.input.keyAgreement != second.input.keyAgreement)
        #expect(
            try HMACSecret.outputs(fixture.output(first.input), sharedSecret: first.sharedSecret).first
                == (try HMACSecret.outputs(fixture.output(second.input), sharedSecret: second.sharedSecret).first))
        let other = try HMACSecret.output(
            for: first.input, keyAgreementKey: fixture.authenticatorKey, credRandom: SecretKey.random())
        #expect(
            try HMACSecret.outputs(other, sharedSecret: first.sharedSecret).first != fixture.expected(fixture.salt1))
    }

    @Test(arguments: PINUVAuthProtocol.allCases)
    func badSaltAuthIsRefused(_ pinUVAuthProtocol: PINUVAuthProtocol) throws {
        let fixture = try Fixture()
        let input = try fixture.request(pinUVAuthProtocol).input
        var saltAuth = input.saltAuth
        saltAuth[0] ^= 0x80
        for changed in [
            HMACSecretInput(
                keyAgreement: input.keyAgreement, saltEnc: input.saltEnc, saltAuth: saltAuth,
                pinUVAuthProtocol: pinUVAuthProtocol),
            HMACSecretInput(
                keyAgreement: input.keyAgreement, saltEnc: input.saltEnc, saltAuth: input.saltAuth.dropLast(),
                pinUVAuthProtocol: pinUVAuthProtocol),
            HMACSecretInput(
                keyAgreement: input.keyAgreement, saltEnc: input.saltEnc.reversed(), saltAuth: input.saltAuth,
                pinUVAuthProtocol: pinUVAuthProtocol),
        ] {
            #expect(throws: AuthenticatorError(.pinAuthInvalid, "")) { try fixture.output(changed) }
        }
    }

    /// Salts of 16, 48 or 96 bytes, properly encrypted and authenticated, are refused.
    @Test(arguments: PINUVAuthProtocol.allCases, [16, 48, 96])
    func saltsOtherThanOneOrTwoAreRefused(_ pinUVAuthProtocol: PINUVAuthProtocol, length: Int) throws {
        let fixture = try Fixture()
        let valid = try fixture.request(pinUVAuthProtocol).input
        let sharedSecret = try pinUVAuthProtocol.decapsulate(peer: valid.keyAgreement, using: fixture.authenticatorKey)
        let saltEnc = try sharedSecret.encrypt(SecureRandom.bytes(length))
        let input = HMACSecretInput(
            keyAgreement: valid.keyAgreement, saltEnc: saltEnc, saltAuth: sharedSecret.authenticate(saltEnc),
            pinUVAuthProtocol: pinUVAuthProtocol)
        #expect(throws: AuthenticatorError(.invalidLength, "")) { try fixture.output(input) }
    }

    @Test(arguments: [0, 16, 31, 33, 64])
    func platformRefusesSaltsThatAreNot32Bytes(length: Int) throws {
        let fixture = try Fixture()
        let salt = [UInt8](repeating: 7, count: length)
        #expect(throws: AuthenticatorError(.invalidLength, "")) {
            try HMACSecret.input(
                salt1: salt, authenticatorKeyAgreement: fixture.authenticatorKey.publicKey, pinUVAuthProtocol: .two)
        }
        #expect(throws: AuthenticatorError(.invalidLength, "")) {
            try HMACSecret.input(
                salt1: fixture.salt1, salt2: salt, authenticatorKeyAgreement: fixture.authenticatorKey.publicKey,
                pinUVAuthProtocol: .two)
        }
    }

    @Test(arguments: PINUVAuthProtocol.allCases)
    func offCurveKeyAgreementIsAnInvalidParameter(_ pinUVAuthProtocol: PINUVAuthProtocol) throws {
        let fixture = try Fixture()
        let valid = try fixture.request(pinUVAuthProtocol).input
        let input = HMACSecretInput(
            keyAgreement: try offCurveKey(), saltEnc: valid.saltEnc, saltAuth: valid.saltAuth,
            pinUVAuthProtocol: pinUVAuthProtocol)
        #expect(throws: AuthenticatorError(.invalidParameter, "")) { try fixture.output(input) }
    }

    /// The secret of one protocol does not open a request made with the other.
    @Test func protocolMismatchIsRefused() throws {
        let fixture = try Fixture()
        let input = try fixture.request(.two).input
        let relabelled = HMACSecretInput(
            keyAgreement: input.keyAgreement, saltEnc: input.saltEnc, saltAuth: input.saltAuth,
            pinUVAuthProtocol: .one)
        #expect(throws: AuthenticatorError(.pinAuthInvalid, "")) { try fixture.output(relabelled) }
    }

    @Test func platformRefusesOutputsOfOtherLengths() throws {
        let (_, sharedSecret) = try Fixture().request(.two)
        for length in [16, 48, 96] {
            let output = try sharedSecret.encrypt(SecureRandom.bytes(length))
            #expect(throws: AuthenticatorError(.invalidLength, "")) {
                try HMACSecret.outputs(output, sharedSecret: sharedSecret)
            }
        }
    }

    // MARK: The input's CBOR

    @Test func inputEncodesCanonicallyAndRoundTrips() throws {
        let input = try Fixture().request(.one).input
        let bytes = input.cbor.encoded()
        #expect(bytes.first == 0xa4)  // a map of four entries, keys 1 to 4 in order
        #expect(try HMACSecretInput(cbor: CBOR(decoding: bytes)) == input)
        #expect(input.cbor[4] == 1)
    }

    @Test func absentProtocolMeansOne() throws {
        let input = try Fixture().request(.one).input
        let cbor: CBOR = [1: input.keyAgreement.cbor, 2: .bytes(input.saltEnc), 3: .bytes(input.saltAuth)]
        #expect(try HMACSecretInput(cbor: cbor).pinUVAuthProtocol == .one)
    }

    @Test func malformedInputsAreRefused() throws {
        let input = try Fixture().request(.two).input
        let valid = try #require(input.cbor.mapValue)
        for key in [1, 2, 3] {
            var map = valid
            map[CBOR(key)] = nil
            #expect(throws: AuthenticatorError(.missingParameter, "")) { try HMACSecretInput(cbor: .map(map)) }
        }
        for (key, value) in [(1, CBOR.bytes([1])), (1, [1: 2]), (2, "salt"), (3, 7), (4, 3), (4, 0), (4, "2")] {
            var map = valid
            map[CBOR(key)] = value
            #expect(throws: AuthenticatorError(.invalidParameter, "")) { try HMACSecretInput(cbor: .map(map)) }
        }
        #expect(throws: AuthenticatorError(.invalidParameter, "")) { try HMACSecretInput(cbor: .array([])) }
    }

    // MARK: prf

    /// WebAuthn L3 §10.1.4: SHA-256("WebAuthn PRF" ‖ 0x00 ‖ input), here for the empty input.
    @Test func prfSaltOfTheEmptyInput() {
        #expect(
            HMACSecret.salt(forPRFInput: [UInt8]())
                == SHA256Digest.hash(Array("WebAuthn PRF".utf8) + [0]))
        #expect(HMACSecret.salt(forPRFInput: [1]) != HMACSecret.salt(forPRFInput: [UInt8]()))
    }
}
