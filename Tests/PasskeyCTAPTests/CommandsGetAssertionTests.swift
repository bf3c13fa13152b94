import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// authenticatorGetAssertion and GetNextAssertion (CTAP 2.1 §6.2, §6.3): assertions the relying
/// party verifies, and one status per broken request.
@Suite struct CommandsGetAssertionTests {
    let fixture = CommandsFixture()

    func assert(_ registration: VerifiedRegistration, allowList: [[UInt8]]) async throws -> VerifiedAuthentication {
        let challenge = SecureRandom.bytes(32)
        let clientData = CommandsFixture.clientData(.get, challenge: challenge)
        var request: [CBOR: CBOR] = [1: .text(CommandsFixture.rpID), 2: .bytes(clientData.hash)]
        if !allowList.isEmpty {
            request[3] = .array(allowList.map { ["id": .bytes($0), "type": "public-key"] })
        }
        let (status, response) = try await fixture.send(.getAssertion, .map(request))
        #expect(status == .ok)
        let body = try #require(response)
        #expect(body[5] == nil)
        let credentialID = try #require(body[1]?["id"]?.bytesValue)
        #expect(body[1]?["type"] == "public-key")
        let record = CredentialRecord(
            id: registration.credentialID, publicKey: registration.credentialPublicKey,
            signCount: registration.signCount, userHandle: [1, 2, 3, 4])
        return try RelyingParty(id: CommandsFixture.rpID).verifyAuthentication(
            credentialID: credentialID, clientDataJSON: clientData.json,
            authenticatorData: try #require(body[2]?.bytesValue), signature: try #require(body[3]?.bytesValue),
            userHandle: body[4]?["id"]?.bytesValue, challenge: challenge, credential: record,
            allowCredentials: allowList, userIdentified: allowList.isEmpty ? .byResponse : .beforeCeremony)
    }

    @Test func aDiscoverableAssertionVerifiesWithTheRelyingParty() async throws {
        let registration = try await fixture.register()
        let authentication = try await assert(registration, allowList: [])
        #expect(authentication.signCount > registration.signCount)
    }

    @Test func anAllowListAssertionVerifiesWithTheRelyingParty() async throws {
        let registration = try await fixture.register(residentKey: false)
        _ = try await assert(registration, allowList: [[0xEE], registration.credentialID])
    }

    @Test func aSilentAssertionHasUPClearAndAsksNobody() async throws {
        let fixture = CommandsFixture(presence: .deny)
        let store = fixture.store
        let registration = try await CommandsFixture(store: store).register()
        let request: CBOR = [
            1: .text(CommandsFixture.rpID), 2: .bytes([UInt8](repeating: 3, count: 32)), 5: ["up": false],
        ]
        let (status, response) = try await fixture.send(.getAssertion, request)
        #expect(status == .ok)
        #expect(response?[1]?["id"] == .bytes(registration.credentialID))
        let authData = try AuthenticatorData(bytes: try #require(response?[2]?.bytesValue))
        #expect(!authData.flags.contains(.userPresent))
    }

    @Test func noCredentialIsNoCredentials() async throws {
        let request: CBOR = [1: "nobody.example", 2: .bytes([UInt8](repeating: 3, count: 32))]
        #expect(try await fixture.send(.getAssertion, request).status == .noCredentials)
    }

    @Test(
        arguments: [
            (1, nil, CTAPStatus.missingParameter),
            (2, nil, .missingParameter),
            (1, .bytes([1]), .cborUnexpectedType),
            (3, [["type": "public-key"]], .missingParameter),
            (5, ["rk": true], .unsupportedOption),
            (5, ["up": "yes"], .cborUnexpectedType),
            (6, .bytes([]), .pinNotSet),
        ] as [(CBOR, CBOR?, CTAPStatus)])
    func aBrokenRequestAnswersItsStatus(key: CBOR, value: CBOR?, expected: CTAPStatus) async throws {
        var request: [CBOR: CBOR] = [1: .text(CommandsFixture.rpID), 2: .bytes([UInt8](repeating: 3, count: 32))]
        request[key] = value
        #expect(try await fixture.send(.getAssertion, .map(request)).status == expected)
    }

    @Test func oneDiscoverableCredentialLeavesGetNextAssertionNothing() async throws {
        _ = try await fixture.register()
        let request: CBOR = [1: .text(CommandsFixture.rpID), 2: .bytes([UInt8](repeating: 3, count: 32))]
        let (status, response) = try await fixture.send(.getAssertion, request)
        #expect(status == .ok && response?[5] == nil)
        #expect(try await fixture.send(.getNextAssertion).status == .notAllowed)
    }
}

/// Several discoverable credentials for one RP on a device without a display (CTAP 2.1 §6.2.2
/// step 7, §6.3): the newest signs, `numberOfCredentials` counts them, and
/// authenticatorGetNextAssertion returns each other one, verified by the relying party, until
/// none is left, another command comes, or 30 seconds pass.
@Suite struct CommandsGetNextAssertionTests {
    let time = ManualClock()
    let fixture: CommandsFixture
    let users: [[UInt8]] = [[1], [2], [3]]

    init() {
        fixture = CommandsFixture(clock: time.clock)
    }

    /// Registers one discoverable credential per user (oldest first) and one that is not.
    func register() async throws -> [[UInt8]: VerifiedRegistration] {
        var registrations: [[UInt8]: VerifiedRegistration] = [:]
        for user in users {
            registrations[user] = try await fixture.register(userID: user)
        }
        _ = try await fixture.register(userID: [9], residentKey: false)
        return registrations
    }

    /// Verifies one assertion of `challenge` and returns whose it was.
    func verify(
        _ body: CBOR?, _ clientData: (json: [UInt8], hash: [UInt8]), _ challenge: [UInt8],
        _ registrations: [[UInt8]: VerifiedRegistration]
    ) throws -> [UInt8] {
        let body = try #require(body)
        let userHandle = try #require(body[4]?["id"]?.bytesValue)
        #expect(body[4]?["name"] == nil, "no display: the user's ID only (§6.2.2 step 12)")
        let registration = try #require(registrations[userHandle])
        let record = CredentialRecord(
            id: registration.credentialID, publicKey: registration.credentialPublicKey,
            signCount: registration.signCount, userHandle: userHandle)
        _ = try RelyingParty(id: CommandsFixture.rpID).verifyAuthentication(
            credentialID: try #require(body[1]?["id"]?.bytesValue), clientDataJSON: clientData.json,
            authenticatorData: try #require(body[2]?.bytesValue), signature: try #require(body[3]?.bytesValue),
            userHandle: userHandle, challenge: challenge, credential: record, allowCredentials: [],
            userIdentified: .byResponse)
        return userHandle
    }

    @Test func eachCredentialSignsOnce() async throws {
        let registrations = try await register()
        let challenge = SecureRandom.bytes(32)
        let clientData = CommandsFixture.clientData(.get, challenge: challenge)
        let request: CBOR = [1: .text(CommandsFixture.rpID), 2: .bytes(clientData.hash)]
        let (status, first) = try await fixture.send(.getAssertion, request)
        #expect(status == .ok)
        #expect(first?[5] == 3)
        var signers = [try verify(first, clientData, challenge, registrations)]
        for _ in 1..<3 {
            let (nextStatus, next) = try await fixture.send(.getNextAssertion)
            #expect(nextStatus == .ok && next?[5] == nil)
            signers.append(try verify(next, clientData, challenge, registrations))
        }
        // In the store's order, newest first; made within one tick here, so compared as a set.
        #expect(Set(signers) == Set(users) && signers.count == users.count)
        #expect(try await fixture.send(.getNextAssertion).status == .notAllowed)
    }

    @Test func anotherCommandEndsThem() async throws {
        _ = try await register()
        let request: CBOR = [1: .text(CommandsFixture.rpID), 2: .bytes([UInt8](repeating: 3, count: 32))]
        #expect(try await fixture.send(.getAssertion, request).response?[5] == 3)
        #expect(try await fixture.send(.getInfo).status == .ok)
        #expect(try await fixture.send(.getNextAssertion).status == .notAllowed)
    }

    @Test func theyLastThirtySecondsFromTheLastAnswer() async throws {
        _ = try await register()
        let request: CBOR = [1: .text(CommandsFixture.rpID), 2: .bytes([UInt8](repeating: 3, count: 32))]
        #expect(try await fixture.send(.getAssertion, request).response?[5] == 3)
        time.advance(by: .seconds(29))
        #expect(try await fixture.send(.getNextAssertion).status == .ok)
        time.advance(by: .seconds(30))
        #expect(try await fixture.send(.getNextAssertion).status == .notAllowed)
    }

    @Test func anAllowListIsAnsweredAlone() async throws {
        let registrations = try await register()
        let chosen = try #require(registrations[[1]]).credentialID
        let request: CBOR = [
            1: .text(CommandsFixture.rpID), 2: .bytes([UInt8](repeating: 3, count: 32)),
            3: [["id": .bytes(chosen), "type": "public-key"]],
        ]
        let (status, response) = try await fixture.send(.getAssertion, request)
        #expect(status == .ok && response?[5] == nil && response?[1]?["id"] == .bytes(chosen))
        #expect(try await fixture.send(.getNextAssertion).status == .notAllowed)
    }
}
