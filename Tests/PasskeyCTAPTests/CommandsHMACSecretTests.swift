import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// hmac-secret over the wire (CTAP 2.1 §12.5): the key agreement of clientPIN getKeyAgreement
/// (§6.5.5.4), salts encrypted to it, outputs the platform decrypts.
@Suite struct CommandsHMACSecretTests {
    let fixture = CommandsFixture()

    func keyAgreement(_ pinUVAuthProtocol: PINUVAuthProtocol) async throws -> COSEKey {
        let (status, response) = try await fixture.send(
            .clientPIN, [1: CBOR(pinUVAuthProtocol.rawValue), 2: 2])
        #expect(status == .ok)
        return try COSEKey(cbor: try #require(response?[1]))
    }

    func evaluate(_ salt: [UInt8], _ pinUVAuthProtocol: PINUVAuthProtocol) async throws -> [UInt8] {
        let (input, secret) = try HMACSecret.input(
            salt1: salt, authenticatorKeyAgreement: try await keyAgreement(pinUVAuthProtocol),
            pinUVAuthProtocol: pinUVAuthProtocol)
        let request: CBOR = [
            1: .text(CommandsFixture.rpID), 2: .bytes([UInt8](repeating: 1, count: 32)),
            4: ["hmac-secret": input.cbor],
        ]
        let (status, response) = try await fixture.send(.getAssertion, request)
        #expect(status == .ok)
        let authData = try AuthenticatorData(bytes: try #require(response?[2]?.bytesValue))
        let output = try #require(authData.extensions?["hmac-secret"]?.bytesValue)
        return try HMACSecret.outputs(output, sharedSecret: secret).first
    }

    @Test(arguments: PINUVAuthProtocol.allCases)
    func aSaltGivesTheSameSecretEachTimeAndAnotherSaltAnother(pinUVAuthProtocol: PINUVAuthProtocol) async throws {
        var request = CommandsFixture.makeCredential(clientDataHash: [UInt8](repeating: 2, count: 32))
        request[6] = ["hmac-secret": true]
        let (status, response) = try await fixture.send(.makeCredential, .map(request))
        #expect(status == .ok)
        let authData = try AuthenticatorData(bytes: try #require(response?[2]?.bytesValue))
        #expect(authData.extensions?["hmac-secret"] == true)

        let salt = [UInt8](repeating: 0xA5, count: 32)
        let first = try await evaluate(salt, pinUVAuthProtocol)
        #expect(first.count == 32)
        #expect(try await evaluate(salt, pinUVAuthProtocol) == first)
        #expect(try await evaluate([UInt8](repeating: 0x5A, count: 32), pinUVAuthProtocol) != first)
    }

    @Test func aTamperedSaltAuthIsRefused() async throws {
        _ = try await fixture.register()
        var (input, _) = try HMACSecret.input(
            salt1: [UInt8](repeating: 7, count: 32), authenticatorKeyAgreement: try await keyAgreement(.two),
            pinUVAuthProtocol: .two)
        var saltAuth = input.saltAuth
        saltAuth[0] ^= 1
        input = HMACSecretInput(
            keyAgreement: input.keyAgreement, saltEnc: input.saltEnc, saltAuth: saltAuth, pinUVAuthProtocol: .two)
        let request: CBOR = [
            1: .text(CommandsFixture.rpID), 2: .bytes([UInt8](repeating: 1, count: 32)),
            4: ["hmac-secret": input.cbor],
        ]
        #expect(try await fixture.send(.getAssertion, request).status == .pinAuthInvalid)
    }

    @Test(
        arguments: [
            ([1: 2] as CBOR, CTAPStatus.missingParameter),
            ([2: 2] as CBOR, .missingParameter),
            ([1: 3, 2: 2] as CBOR, .invalidParameter),
            ([1: 2, 2: 0x42] as CBOR, .invalidSubcommand),
            ([1: 2, 2: "getKeyAgreement"] as CBOR, .cborUnexpectedType),
        ] as [(CBOR, CTAPStatus)])
    func aBrokenClientPINRequestAnswersItsStatus(request: CBOR, expected: CTAPStatus) async throws {
        #expect(try await fixture.send(.clientPIN, request).status == expected)
    }

    @Test func anAuthenticatorWithoutHMACSecretStillAgreesOnAKeyForClientPIN() async throws {
        var profile = AuthenticatorProfile.securityKey
        profile.extensions = []
        let device = CTAPDevice(
            authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: profile))
        let request: CBOR = [1: 2, 2: 2]
        let answer = await device.handle(
            [CTAPCommand.clientPIN.rawValue] + request.encoded(), context: .init(channel: 1))
        #expect(answer.first == CTAPStatus.ok.rawValue)
        let info = try CBOR(decoding: await device.handle([0x04], context: .init(channel: 1)).dropFirst())
        #expect(info[2] == nil && info[6] == [2, 1])
    }
}
