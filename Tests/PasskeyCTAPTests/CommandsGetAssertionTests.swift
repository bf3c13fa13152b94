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

    @Test func getNextAssertionHasNothingToReturn() async throws {
        _ = try await fixture.register()
        let request: CBOR = [1: .text(CommandsFixture.rpID), 2: .bytes([UInt8](repeating: 3, count: 32))]
        #expect(try await fixture.send(.getAssertion, request).status == .ok)
        #expect(try await fixture.send(.getNextAssertion).status == .notAllowed)
    }
}
