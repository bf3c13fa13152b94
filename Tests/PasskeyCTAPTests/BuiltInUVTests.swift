import PasskeyAuthenticator
import PasskeyCTAP
import Synchronization
import Testing
import WebAuthn

/// A device's own user verification (CTAP 2.1 §6.5.5.7.3, §6.5.5.3, §6.1.2 step 11.2, §6.2.2 step
/// 6.2): getInfo's `uv`, UV tokens, the `uv` option of CTAP 2.0 clients, the UV retries and their
/// block, alwaysUv and credProtect 3 without a PIN.
@Suite struct BuiltInUVTests {
    /// A built-in user verification whose answers the test scripts (no once they run out), and
    /// which records what it was asked.
    final class Verifier: Sendable {
        private let answers: Mutex<[Bool]>
        let asked = Mutex<[UserPresenceRequest]>([])

        init(_ answers: [Bool]) {
            self.answers = Mutex(answers)
        }

        var policy: UserVerification {
            UserVerification { request in
                self.asked.withLock { $0.append(request) }
                return self.answers.withLock { $0.isEmpty ? false : $0.removeFirst() }
            }
        }

        var questions: Int { asked.withLock { $0.count } }
    }

    let rpID = CommandsFixture.rpID
    let hash = [UInt8](repeating: 0x5A, count: 32)

    func flags(_ response: CBOR?) throws -> AuthenticatorFlags {
        try AuthenticatorData(bytes: try #require(response?[2]?.bytesValue)).flags
    }

    /// A makeCredential request with the `uv` option as given, and extensions.
    func makeCredential(userID: [UInt8] = [1, 2, 3, 4], residentKey: Bool = true, uv: Bool?, extensions: CBOR? = nil)
        -> CBOR
    {
        var request = CommandsFixture.makeCredential(clientDataHash: hash, userID: userID, residentKey: residentKey)
        var options: [CBOR: CBOR] = ["rk": .bool(residentKey)]
        if let uv {
            options["uv"] = .bool(uv)
        }
        request[7] = .map(options)
        request[6] = extensions
        return .map(request)
    }

    /// A getAssertion request with the options given.
    func getAssertion(_ options: [CBOR: CBOR] = [:]) -> CBOR {
        options.isEmpty ? [1: .text(rpID), 2: .bytes(hash)] : [1: .text(rpID), 2: .bytes(hash), 5: .map(options)]
    }

    @Test func getInfoSaysUVOnlyWhenTheDeviceHasIt() async throws {
        let plain = try #require(try await CommandsFixture().send(.getInfo).response)
        #expect(plain[4]?["uv"] == nil && plain[4]?["uvAcfg"] == nil)
        #expect(plain[0x11] == nil && plain[0x12] == nil)

        let fixture = CommandsFixture(userVerification: .automatic)
        let info = try #require(try await fixture.send(.getInfo).response)
        #expect(info[4]?["uv"] == true)
        #expect(info[4]?["uvAcfg"] == true)
        #expect(info[4]?["pinUvAuthToken"] == true)
        #expect(info[4]?["clientPin"] == false)
        #expect(info[4]?["makeCredUvNotRqd"] == true)
        #expect(info[0x11] == 3)
        #expect(info[0x12] == 4)
        #expect(info[1] == ["FIDO_2_0", "FIDO_2_1"])
        // A PIN beside it: both are there (§6.4 "uv").
        #expect(try await PINClient(device: fixture.device).setPIN("1234") == .ok)
        let both = try #require(try await fixture.send(.getInfo).response)
        #expect(both[4]?["uv"] == true && both[4]?["clientPin"] == true)
        let modality = UserVerification(modality: 0x2) { _ in true }
        #expect(try await CommandsFixture(userVerification: modality).send(.getInfo).response?[0x12] == 2)
    }

    @Test func withoutBuiltInUVTheSubcommandsAndTheOptionAreRefused() async throws {
        let fixture = CommandsFixture()
        let client = PINClient(device: fixture.device)
        #expect(try await client.requestUVToken([.getAssertion], rpID: rpID).status == .invalidSubcommand)
        #expect(try await client.send(0x07).status == .invalidSubcommand)
        #expect(try await fixture.send(.makeCredential, makeCredential(uv: true)).status == .invalidOption)
        #expect(try await fixture.send(.getAssertion, getAssertion(["uv": true])).status == .invalidOption)
    }

    @Test(arguments: PINUVAuthProtocol.allCases)
    func aUVTokenMakesAVerifiedCredential(pinUVAuthProtocol: PINUVAuthProtocol) async throws {
        let verifier = Verifier([true, true])
        let fixture = CommandsFixture(userVerification: verifier.policy)
        let client = PINClient(device: fixture.device, pinUVAuthProtocol)
        #expect(try await client.uvRetries() == 5)
        let (status, token) = try await client.requestUVToken([.makeCredential], rpID: rpID)
        #expect(status == .ok)
        var request = try #require(makeCredential(uv: nil).mapValue)
        try #require(token).authorize(&request, hash, paramKey: 8, protocolKey: 9)
        let (made, response) = try await fixture.send(.makeCredential, .map(request))
        #expect(made == .ok)
        #expect(try flags(response).isSuperset(of: [.userPresent, .userVerified]))
        #expect(verifier.asked.withLock { $0 } == [UserPresenceRequest(command: .clientPIN, rpID: rpID)])

        // The token vouched once; a new one is verified again and works for credential management.
        let manager = try await client.requestUVToken([.credentialManagement])
        #expect(manager.status == .ok && verifier.questions == 2)
        let message: [UInt8] = [0x01]
        var metadata: [CBOR: CBOR] = [1: 0x01]
        try #require(manager.token).authorize(&metadata, message, paramKey: 4, protocolKey: 3)
        let (listed, counts) = try await fixture.send(.credentialManagement, .map(metadata))
        #expect(listed == .ok && counts?[1] == 1)
    }

    @Test func aUVTokenRequestIsCheckedBeforeTheUserIsAsked() async throws {
        let verifier = Verifier([true])
        let fixture = CommandsFixture(userVerification: verifier.policy)
        let client = PINClient(device: fixture.device)
        let (key, _) = try await client.keyAgreement()
        #expect(try await client.send(0x06, [9: 3, 10: .text(rpID)]).status == .missingParameter)
        #expect(try await client.send(0x06, [3: key.cbor, 10: .text(rpID)]).status == .missingParameter)
        #expect(try await client.send(0x06, [3: key.cbor, 9: 0]).status == .invalidParameter)
        #expect(try await client.send(0x06, [3: key.cbor, 9: 1]).status == .missingParameter)
        #expect(try await client.send(0x06, [3: key.cbor, 9: 0x08]).status == .unauthorizedPermission)
        #expect(try await client.send(0x06, [1: 3, 3: key.cbor, 9: 2, 10: "x"]).status == .invalidParameter)
        #expect(try await client.send(0x06, [3: [1: 2], 9: 2, 10: "x"]).status == .invalidParameter)
        #expect(verifier.questions == 0)
    }

    @Test func failuresSpendRetriesUntilUVIsBlockedAndAPINUnblocksIt() async throws {
        let verifier = Verifier([false, true, false, false, false, false, false])
        let fixture = CommandsFixture(userVerification: verifier.policy)
        let client = PINClient(device: fixture.device)
        #expect(try await client.requestUVToken([.getAssertion], rpID: rpID).status == .uvInvalid)
        #expect(try await client.uvRetries() == 4)
        // A success fills them again.
        #expect(try await client.requestUVToken([.getAssertion], rpID: rpID).status == .ok)
        #expect(try await client.uvRetries() == 5)
        for left in (1...4).reversed() {
            #expect(try await client.requestUVToken([.getAssertion], rpID: rpID).status == .uvInvalid)
            #expect(try await client.uvRetries() == left)
        }
        #expect(try await client.requestUVToken([.getAssertion], rpID: rpID).status == .uvBlocked)
        #expect(try await client.uvRetries() == 0)
        let asked = verifier.questions
        // Blocked: nobody is asked any more, by the subcommand or the uv option (§6.1.2 step 11.2.3).
        #expect(try await client.requestUVToken([.getAssertion], rpID: rpID).status == .uvBlocked)
        #expect(try await fixture.send(.makeCredential, makeCredential(uv: true)).status == .pinBlocked)
        #expect(verifier.questions == asked)
        // With a PIN the client is sent to it; a correct PIN unblocks built-in UV.
        #expect(try await client.setPIN("1234") == .ok)
        #expect(try await fixture.send(.makeCredential, makeCredential(uv: true)).status == .pinUVAuthTokenRequired)
        _ = try await client.token("1234", [.getAssertion], rpID: rpID)
        #expect(try await client.uvRetries() == 5)
    }

    @Test func retriesSurviveANewDeviceOverTheSameStore() async throws {
        let store = InMemoryCredentialStore()
        let first = CommandsFixture(store: store, state: store, userVerification: .deny)
        #expect(
            try await PINClient(device: first.device).requestUVToken([.makeCredential], rpID: rpID).status == .uvInvalid
        )
        #expect(try await first.send(.makeCredential, makeCredential(uv: true)).status == .operationDenied)
        let next = CommandsFixture(store: store, state: store, userVerification: .automatic)
        #expect(try await PINClient(device: next.device).uvRetries() == 3)
        #expect(await store.ctapState().uvRetries == 3)
        // Reset starts over.
        #expect(try await next.send(.reset).status == .ok)
        #expect(try await PINClient(device: next.device).uvRetries() == 5)
    }

    @Test func theUVOptionVerifiesTheUserTheCTAP20Way() async throws {
        let verifier = Verifier([true, true])
        let fixture = CommandsFixture(userVerification: verifier.policy)
        let (made, attestation) = try await fixture.send(.makeCredential, makeCredential(uv: true))
        #expect(made == .ok)
        #expect(try flags(attestation).isSuperset(of: [.userPresent, .userVerified]))
        let (asserted, assertion) = try await fixture.send(.getAssertion, getAssertion(["uv": true]))
        #expect(asserted == .ok)
        #expect(try flags(assertion).isSuperset(of: [.userPresent, .userVerified]))
        #expect(
            verifier.asked.withLock { $0 } == [
                UserPresenceRequest(command: .makeCredential, rpID: rpID),
                UserPresenceRequest(command: .getAssertion, rpID: rpID),
            ])
        // Without the option nobody is asked, and the assertion is not verified.
        let (plain, unverified) = try await fixture.send(.getAssertion, getAssertion())
        #expect(plain == .ok)
        #expect(try !flags(unverified).contains(.userVerified))
        // A non-discoverable credential may go unverified (makeCredUvNotRqd); a discoverable one not.
        #expect(try await fixture.send(.makeCredential, makeCredential(residentKey: false, uv: nil)).status == .ok)
        #expect(try await fixture.send(.makeCredential, makeCredential(uv: nil)).status == .operationDenied)
        #expect(verifier.questions == 2)
    }

    @Test func aDenialIsOperationDeniedAndChangesNothingButTheRetries() async throws {
        let store = InMemoryCredentialStore()
        _ = try await CommandsFixture(store: store).register()
        let before = await store.all().credentials
        let fixture = CommandsFixture(store: store, userVerification: .deny)
        #expect(
            try await fixture.send(.makeCredential, makeCredential(userID: [9], uv: true)).status == .operationDenied)
        #expect(try await fixture.send(.getAssertion, getAssertion(["uv": true])).status == .operationDenied)
        #expect(await store.all().credentials == before)
        #expect(try await PINClient(device: fixture.device).uvRetries() == 3)
    }

    @Test func aTimeoutSpendsNoRetryAndACancelStopsTheWait() async throws {
        let never = UserVerification(timeout: .milliseconds(50)) { _ in
            try? await Task.sleep(for: .seconds(600))
            return true
        }
        let fixture = CommandsFixture(userVerification: never)
        let client = PINClient(device: fixture.device)
        #expect(try await client.requestUVToken([.getAssertion], rpID: rpID).status == .userActionTimeout)
        #expect(try await fixture.send(.makeCredential, makeCredential(uv: true)).status == .userActionTimeout)
        #expect(try await client.uvRetries() == 5)
        let cancelled = CommandsPresenceTests.Transaction()
        cancelled.cancelled.withLock { $0 = true }
        let answer = await fixture.device.handle(
            [CTAPCommand.makeCredential.rawValue] + makeCredential(uv: true).encoded(), context: cancelled.context)
        #expect(answer == [CTAPStatus.keepAliveCancel.rawValue])
    }

    @Test func alwaysUvMakesTheDeviceVerifyCTAP20Clients() async throws {
        let verifier = Verifier([true, true, true, true])
        let fixture = CommandsFixture(userVerification: verifier.policy)
        let client = PINClient(device: fixture.device)
        // Built-in UV protects the configuration: toggling alwaysUv takes a token with acfg.
        #expect(try await fixture.send(.config, [1: 2]).status == .pinUVAuthTokenRequired)
        let token = try #require(try await client.requestUVToken([.authenticatorConfig]).token)
        var toggle: [CBOR: CBOR] = [1: 2]
        token.authorize(&toggle, [UInt8](repeating: 0xFF, count: 32) + [0x0D, 0x02], paramKey: 4, protocolKey: 3)
        #expect(try await fixture.send(.config, .map(toggle)).status == .ok)
        let options = try await fixture.send(.getInfo).response?[4]
        #expect(options?["alwaysUv"] == true && options?["makeCredUvNotRqd"] == false)

        // A client that knows nothing of alwaysUv is verified all the same (§6.1.2 step 6).
        let (made, attestation) = try await fixture.send(.makeCredential, makeCredential(uv: nil))
        #expect(made == .ok)
        #expect(try flags(attestation).contains(.userVerified))
        let (asserted, assertion) = try await fixture.send(.getAssertion, getAssertion())
        #expect(asserted == .ok)
        #expect(try flags(assertion).contains(.userVerified))
        #expect(verifier.questions == 3)
        // A silent assertion (up false) asks nobody (§6.2.2 step 5 is for up true).
        let (silent, quiet) = try await fixture.send(.getAssertion, getAssertion(["up": false]))
        #expect(silent == .ok)
        #expect(try flags(quiet).isDisjoint(with: [.userPresent, .userVerified]))
        #expect(verifier.questions == 3)
    }

    @Test func credProtectThreeWorksWithoutAPIN() async throws {
        let fixture = CommandsFixture(userVerification: .automatic)
        let (made, attestation) = try await fixture.send(
            .makeCredential, makeCredential(uv: true, extensions: ["credProtect": 3]))
        #expect(made == .ok)
        let authData = try AuthenticatorData(bytes: try #require(attestation?[2]?.bytesValue))
        #expect(authData.extensions?["credProtect"] == 3)
        // §12.1: without UV the credential does not exist, with the uv option or a UV token it signs.
        #expect(try await fixture.send(.getAssertion, getAssertion()).status == .noCredentials)
        let (asserted, assertion) = try await fixture.send(.getAssertion, getAssertion(["uv": true]))
        #expect(asserted == .ok)
        #expect(try flags(assertion).contains(.userVerified))
        let token = try #require(
            try await PINClient(device: fixture.device).requestUVToken([.getAssertion], rpID: rpID).token)
        var request = try #require(getAssertion().mapValue)
        token.authorize(&request, hash, paramKey: 6, protocolKey: 7)
        #expect(try await fixture.send(.getAssertion, .map(request)).status == .ok)
    }
}
