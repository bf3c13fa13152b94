import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// makeCredential and getAssertion on a device with a PIN (CTAP 2.1 §6.1.2, §6.2.2): the
/// pinUvAuthToken's permissions, RP ID binding and timers (moved by a ManualClock, never
/// waited for), UV in the authenticator data, and what a request without a token may still do.
@Suite struct PINCommandsTests {
    let clock = ManualClock()
    let fixture: CommandsFixture
    let rpID = CommandsFixture.rpID

    init() {
        fixture = CommandsFixture(clock: clock.clock)
    }

    /// A makeCredential request, authorized by `token` when given.
    func makeCredential(_ token: PINClient.Token?, residentKey: Bool = true) -> (
        request: [CBOR: CBOR], clientData: (json: [UInt8], hash: [UInt8]), challenge: [UInt8]
    ) {
        let challenge = SecureRandom.bytes(32)
        let clientData = CommandsFixture.clientData(.create, challenge: challenge)
        var request = CommandsFixture.makeCredential(clientDataHash: clientData.hash, residentKey: residentKey)
        token?.authorize(&request, clientData.hash, paramKey: 8, protocolKey: 9)
        return (request, clientData, challenge)
    }

    /// A getAssertion request, authorized by `token` when given.
    func getAssertion(_ token: PINClient.Token?) -> [CBOR: CBOR] {
        let hash = [UInt8](repeating: 7, count: 32)
        var request: [CBOR: CBOR] = [1: .text(rpID), 2: .bytes(hash)]
        token?.authorize(&request, hash, paramKey: 6, protocolKey: 7)
        return request
    }

    func flags(_ response: CBOR?) throws -> AuthenticatorFlags {
        try AuthenticatorData(bytes: try #require(response?[2]?.bytesValue)).flags
    }

    @Test(arguments: PINUVAuthProtocol.allCases)
    func aTokenMakesAVerifiedCredentialOnceThenAssertsWithUV(pinUVAuthProtocol: PINUVAuthProtocol) async throws {
        let client = PINClient(device: fixture.device, pinUVAuthProtocol)
        #expect(try await client.setPIN("1234") == .ok)
        let token = try await client.token("1234", [.makeCredential], rpID: rpID)
        let (request, clientData, challenge) = makeCredential(token)
        let (status, response) = try await fixture.send(.makeCredential, .map(request))
        #expect(status == .ok)
        let body = try #require(response)
        let attestationObject: CBOR = [
            "fmt": try #require(body[1]), "attStmt": try #require(body[3]), "authData": try #require(body[2]),
        ]
        let registration = try RelyingParty(id: rpID).verifyRegistration(
            clientDataJSON: clientData.json, attestationObject: attestationObject.encoded(), challenge: challenge)
        #expect(registration.credentialID.count > 0)
        #expect(try flags(response).isSuperset(of: [.userPresent, .userVerified]))
        // §6.1.2 step 17: the token vouched for one verified user, once.
        #expect(try await fixture.send(.makeCredential, .map(makeCredential(token).request)).status == .pinAuthInvalid)

        let assertion = try await client.token("1234", [.getAssertion], rpID: rpID)
        let (assertStatus, assertResponse) = try await fixture.send(.getAssertion, .map(getAssertion(assertion)))
        #expect(assertStatus == .ok)
        #expect(try flags(assertResponse).isSuperset(of: [.userPresent, .userVerified]))
    }

    @Test func withAPINSetADiscoverableCredentialNeedsATokenAndAnotherDoesNot() async throws {
        let client = PINClient(device: fixture.device)
        #expect(try await client.setPIN("1234") == .ok)
        #expect(
            try await fixture.send(.makeCredential, .map(makeCredential(nil).request)).status == .pinUVAuthTokenRequired
        )
        // makeCredUvNotRqd: a non-discoverable credential without UV.
        let (status, response) = try await fixture.send(
            .makeCredential, .map(makeCredential(nil, residentKey: false).request))
        #expect(status == .ok)
        #expect(try !flags(response).contains(.userVerified))
        let token = try await client.token("1234", [.makeCredential], rpID: rpID)
        #expect(try await fixture.send(.makeCredential, .map(makeCredential(token).request)).status == .ok)
        let (assertStatus, assertResponse) = try await fixture.send(.getAssertion, .map(getAssertion(nil)))
        #expect(assertStatus == .ok)
        #expect(try !flags(assertResponse).contains(.userVerified))
    }

    @Test func aTokenIsRefusedForAnotherRPAnotherPermissionOrAWrongParam() async throws {
        let client = PINClient(device: fixture.device, .one)
        #expect(try await client.setPIN("1234") == .ok)
        let other = try await client.token("1234", [.makeCredential], rpID: "other.example")
        #expect(try await fixture.send(.makeCredential, .map(makeCredential(other).request)).status == .pinAuthInvalid)
        let assertOnly = try await client.token("1234", [.getAssertion], rpID: rpID)
        #expect(
            try await fixture.send(.makeCredential, .map(makeCredential(assertOnly).request)).status == .pinAuthInvalid)
        let token = try await client.token("1234", [.makeCredential], rpID: rpID)
        var request = makeCredential(token).request
        request[1] = .bytes([UInt8](repeating: 9, count: 32))  // not the hash the param covers
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .pinAuthInvalid)
        #expect(try await fixture.send(.makeCredential, .map(makeCredential(token).request)).status == .ok)
        #expect(await fixture.store.all().credentials.count == 1)
    }

    @Test func aTokenWithoutAnRPIDIsBoundByItsFirstUse() async throws {
        let client = PINClient(device: fixture.device, .one)
        #expect(try await client.setPIN("1234") == .ok)
        // The legacy getPinToken gives mc and ga with no RP ID.
        let token = try #require(try await client.requestToken("1234", nil).token)
        var request = getAssertion(token)
        request[1] = "other.example"
        #expect(try await fixture.send(.getAssertion, .map(request)).status == .noCredentials)
        #expect(try await fixture.send(.getAssertion, .map(getAssertion(token))).status == .pinAuthInvalid)
    }

    @Test func anUnusedTokenExpiresAfterThirtySecondsAndAUsedOneAfterTenMinutes() async throws {
        let client = PINClient(device: fixture.device)
        #expect(try await client.setPIN("1234") == .ok)
        _ = try await fixture.send(.makeCredential, .map(makeCredential(nil, residentKey: false).request))
        let late = try await client.token("1234", [.makeCredential], rpID: rpID)
        clock.advance(by: .seconds(31))
        #expect(try await fixture.send(.makeCredential, .map(makeCredential(late).request)).status == .pinAuthInvalid)

        let token = try await client.token("1234", [.makeCredential, .largeBlobWrite], rpID: rpID)
        clock.advance(by: .seconds(29))
        #expect(try await fixture.send(.makeCredential, .map(makeCredential(token).request)).status == .ok)
        clock.advance(by: .seconds(60))
        // Spent for mc; lbw stays (§6.1.2 step 17), so a second mc fails for the permission only.
        #expect(try await fixture.send(.makeCredential, .map(makeCredential(token).request)).status == .pinAuthInvalid)
    }

    @Test func aZeroLengthParamAsksForATouchAndTellsWhetherAPINIsSet() async throws {
        var request = makeCredential(nil).request
        request[8] = .bytes([])
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .pinNotSet)
        #expect(try await PINClient(device: fixture.device).setPIN("1234") == .ok)
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .pinInvalid)
        var assertion = getAssertion(nil)
        assertion[6] = .bytes([])
        #expect(try await fixture.send(.getAssertion, .map(assertion)).status == .pinInvalid)
        let denied = CommandsFixture(presence: .deny)
        #expect(try await denied.send(.makeCredential, .map(request)).status == .operationDenied)
    }

    @Test func theUVOptionWithoutATokenIsInvalidSinceTheDeviceHasNoBuiltInUV() async throws {
        var request = makeCredential(nil).request
        request[7] = ["rk": true, "uv": true]
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .invalidOption)
        var assertion = getAssertion(nil)
        assertion[5] = ["uv": true]
        #expect(try await fixture.send(.getAssertion, .map(assertion)).status == .invalidOption)
        let client = PINClient(device: fixture.device)
        #expect(try await client.setPIN("1234") == .ok)
        let token = try await client.token("1234", [.makeCredential], rpID: rpID)
        token.authorize(&request, try #require(request[1]?.bytesValue), paramKey: 8, protocolKey: 9)
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .ok)
    }

    @Test func resetClearsThePINAndEndsTheToken() async throws {
        let client = PINClient(device: fixture.device)
        #expect(try await client.setPIN("1234") == .ok)
        _ = try await client.requestToken("0000", [.makeCredential], rpID: rpID)
        let token = try await client.token("1234", [.makeCredential], rpID: rpID)
        #expect(try await fixture.send(.reset).status == .ok)
        #expect(try await client.retries() == (8, false))
        #expect(try await fixture.send(.makeCredential, .map(makeCredential(token).request)).status == .pinAuthInvalid)
        #expect(try await fixture.send(.makeCredential, .map(makeCredential(nil).request)).status == .ok)
        let info = try #require(try await fixture.send(.getInfo).response)
        #expect(info[4]?["clientPin"] == false)
        #expect(try await client.setPIN("5678") == .ok)
    }
}
