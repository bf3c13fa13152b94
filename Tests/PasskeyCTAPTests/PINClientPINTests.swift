import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// authenticatorClientPIN (CTAP 2.1 §6.5.5): setPIN, changePIN, tokens with permissions, the
/// PIN policy, retries and the power-cycle block, with both PIN/UV auth protocols.
@Suite struct PINClientPINTests {
    let fixture = CommandsFixture()

    @Test(arguments: PINUVAuthProtocol.allCases)
    func aPINSetGivesATokenOfThirtyTwoBytes(pinUVAuthProtocol: PINUVAuthProtocol) async throws {
        let client = PINClient(device: fixture.device, pinUVAuthProtocol)
        #expect(try await client.setPIN("1234") == .ok)
        let token = try await client.token("1234", [.makeCredential], rpID: CommandsFixture.rpID)
        #expect(token.bytes.count == 32)
        #expect(try await client.retries() == (8, false))
    }

    @Test func aSecondSetPINIsRefused() async throws {
        let client = PINClient(device: fixture.device)
        #expect(try await client.setPIN("1234") == .ok)
        #expect(try await client.setPIN("5678") == .pinAuthInvalid)
        _ = try await client.token("1234", [.getAssertion], rpID: CommandsFixture.rpID)
    }

    @Test func setPINWithAWrongParamIsRefusedAndSetsNothing() async throws {
        let client = PINClient(device: fixture.device)
        let (key, secret) = try await client.keyAgreement()
        let newPinEnc = try secret.encrypt(PINClient.padded(Array("1234".utf8)))
        var param = secret.authenticate(newPinEnc)
        param[0] ^= 1
        let (status, _) = try await client.send(0x03, [3: key.cbor, 4: .bytes(param), 5: .bytes(newPinEnc)])
        #expect(status == .pinAuthInvalid)
        #expect(try await client.requestToken("1234", [.makeCredential], rpID: "x").status == .pinNotSet)
    }

    @Test func thePINPolicyCountsCodePointsAndBytes() async throws {
        let client = PINClient(device: fixture.device, .one)
        #expect(try await client.setPIN("123") == .pinPolicyViolation)
        #expect(try await client.setPIN(padded: [UInt8](repeating: 0x31, count: 64)) == .pinPolicyViolation)
        #expect(try await client.setPIN(padded: PINClient.padded([0x31, 0x32, 0xFF, 0x33])) == .pinPolicyViolation)
        #expect(try await client.setPIN(padded: PINClient.padded([0x31, 0, 0x32, 0x33, 0x34])) == .pinPolicyViolation)
        // Four code points in eight bytes is long enough; 63 bytes is the longest.
        #expect(try await client.setPIN("äöüß") == .ok)
        #expect(try await client.changePIN(from: "äöüß", to: String(repeating: "7", count: 63)) == .ok)
        _ = try await client.token(String(repeating: "7", count: 63), [.makeCredential], rpID: "x")
    }

    @Test func paddingOtherThanSixtyFourBytesIsAnInvalidParameter() async throws {
        let client = PINClient(device: fixture.device)
        #expect(
            try await client.setPIN(padded: PINClient.padded(Array("1234".utf8)) + [UInt8](repeating: 0, count: 16))
                == .invalidParameter)
    }

    @Test func wrongPINsCountDownThenBlockUntilAPowerCycleThenForGood() async throws {
        let store = InMemoryCredentialStore()
        var fixture = CommandsFixture(store: store, state: store)
        var client = PINClient(device: fixture.device)
        #expect(try await client.setPIN("1234") == .ok)
        #expect(try await client.requestToken("0000", [.makeCredential], rpID: "x").status == .pinInvalid)
        #expect(try await client.requestToken("0000", [.makeCredential], rpID: "x").status == .pinInvalid)
        #expect(try await client.requestToken("0000", [.makeCredential], rpID: "x").status == .pinAuthBlocked)
        #expect(try await client.retries() == (5, true))
        // Blocked until power-up, even for the right PIN, and without spending a retry.
        #expect(try await client.requestToken("1234", [.makeCredential], rpID: "x").status == .pinAuthBlocked)
        #expect(try await client.retries() == (5, true))
        for remaining in [4, 3, 2, 1, 0] {
            fixture = CommandsFixture(store: store, state: store)  // a power cycle
            client = PINClient(device: fixture.device)
            #expect(try await client.retries() == (remaining + 1, false))
            let status = try await client.requestToken("0000", [.makeCredential], rpID: "x").status
            #expect(status == (remaining == 0 ? .pinBlocked : .pinInvalid))
        }
        #expect(try await client.requestToken("1234", [.makeCredential], rpID: "x").status == .pinBlocked)
        #expect(try await client.changePIN(from: "1234", to: "5678") == .pinBlocked)
    }

    @Test func aWrongPINRegeneratesTheKeyAgreementKey() async throws {
        let client = PINClient(device: fixture.device)
        #expect(try await client.setPIN("1234") == .ok)
        let before = try #require(try await client.send(0x02).response?[1])
        #expect(try await client.send(0x02).response?[1] == before)
        // The secret agreed before the wrong PIN no longer decrypts anything.
        let (key, secret) = try await client.keyAgreement()
        #expect(try await client.requestToken("0000", [.getAssertion], rpID: "x").status == .pinInvalid)
        #expect(try await client.send(0x02).response?[1] != before)
        let stale: [CBOR: CBOR] = [
            3: key.cbor, 6: .bytes(try secret.encrypt(PINClient.hash("1234"))), 9: 2, 10: "x",
        ]
        #expect(try await client.send(0x09, stale).status == .pinInvalid)
        _ = try await client.token("1234", [.getAssertion], rpID: "x")
    }

    @Test func theRightPINRestoresTheRetries() async throws {
        let client = PINClient(device: fixture.device, .one)
        #expect(try await client.setPIN("1234") == .ok)
        #expect(try await client.requestToken("0000", [.getAssertion], rpID: "x").status == .pinInvalid)
        #expect(try await client.retries() == (7, false))
        _ = try await client.token("1234", [.getAssertion], rpID: "x")
        #expect(try await client.retries() == (8, false))
    }

    @Test(arguments: PINUVAuthProtocol.allCases)
    func changePINNeedsTheOldPINAndEndsTheToken(pinUVAuthProtocol: PINUVAuthProtocol) async throws {
        let client = PINClient(device: fixture.device, pinUVAuthProtocol)
        #expect(try await client.setPIN("1234") == .ok)
        #expect(try await client.changePIN(from: "9999", to: "5678") == .pinInvalid)
        #expect(try await client.changePIN(from: "1234", to: "5678") == .ok)
        #expect(try await client.requestToken("1234", [.getAssertion], rpID: "x").status == .pinInvalid)
        _ = try await client.token("5678", [.getAssertion], rpID: "x")
    }

    @Test func permissionsAreCheckedBeforeThePIN() async throws {
        let client = PINClient(device: fixture.device)
        #expect(try await client.setPIN("1234") == .ok)
        #expect(try await client.requestToken("1234", [], rpID: "x").status == .invalidParameter)
        #expect(try await client.requestToken("1234", [.makeCredential]).status == .missingParameter)
        #expect(try await client.requestToken("1234", [.getAssertion]).status == .missingParameter)
        #expect(try await client.requestToken("0000", [.bioEnrollment]).status == .unauthorizedPermission)
        #expect(try await client.retries() == (8, false))
        _ = try await client.token("1234", [.credentialManagement, .authenticatorConfig])
    }

    @Test func theLegacyGetPinTokenTakesNoPermissions() async throws {
        let client = PINClient(device: fixture.device, .one)
        #expect(try await client.setPIN("1234") == .ok)
        let (status, token) = try await client.requestToken("1234", nil)
        #expect(status == .ok && token?.bytes.count == 32)
        let (key, secret) = try await client.keyAgreement()
        let request: [CBOR: CBOR] = [3: key.cbor, 6: .bytes(try secret.encrypt(PINClient.hash("1234"))), 9: 1]
        #expect(try await client.send(0x05, request).status == .invalidParameter)
    }

    @Test func subcommandsNeedTheirParameters() async throws {
        let client = PINClient(device: fixture.device)
        #expect(try await client.send(0x03).status == .missingParameter)
        #expect(try await client.send(0x09, [9: 1, 10: "x"]).status == .missingParameter)
        #expect(try await client.send(0x02, [1: 3]).status == .invalidParameter)
        #expect(try await client.send(0x06).status == .invalidSubcommand)
        #expect(try await client.send(0x07).status == .invalidSubcommand)
        #expect(try await client.send(0x42).status == .invalidSubcommand)
        let noProtocol = await fixture.device.handle(
            [CTAPCommand.clientPIN.rawValue] + CBOR.map([2: 1]).encoded(), context: CTAPTransaction(channel: 1))
        #expect(noProtocol.first == CTAPStatus.ok.rawValue)
    }

    @Test func theAuthenticatorsErrorCodesAreCTAP21s() {
        let pairs: [(AuthenticatorError.Code, CTAPStatus)] = [
            (.integrityFailure, .integrityFailure), (.largeBlobStorageFull, .largeBlobStorageFull),
            (.uvBlocked, .uvBlocked), (.pinAuthInvalid, .pinAuthInvalid), (.uvInvalid, .uvInvalid),
        ]
        for (code, status) in pairs {
            #expect(code.rawValue == status.rawValue)
            #expect(code.description == status.description)
        }
    }

    @Test func anAuthenticatorWithoutUserVerificationHasNoPIN() async throws {
        var profile = AuthenticatorProfile.securityKey
        profile.supportsUserVerification = false
        let device = CTAPDevice(
            authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: profile))
        let client = PINClient(device: device, .one)
        #expect(try await client.retries() == (8, false))
        #expect(try await client.setPIN("1234") == .invalidSubcommand)
        let answer = await device.handle([CTAPCommand.getInfo.rawValue], context: CTAPTransaction(channel: 1))
        let info = try CBOR(decoding: answer.dropFirst())
        #expect(info[1] == ["U2F_V2", "FIDO_2_0"] && info[4]?["clientPin"] == nil && info[6] == [2, 1])
        let config = await device.handle(
            [CTAPCommand.config.rawValue] + CBOR.map([1: 2]).encoded(), context: CTAPTransaction(channel: 1))
        #expect(config == [CTAPStatus.invalidCommand.rawValue])
    }
}
