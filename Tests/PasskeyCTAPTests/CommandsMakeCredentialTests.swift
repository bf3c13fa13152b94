import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// authenticatorMakeCredential (CTAP 2.1 §6.1): real attestations, verified by the relying party,
/// and one status per broken request.
@Suite struct CommandsMakeCredentialTests {
    let fixture = CommandsFixture()
    let hash = [UInt8](repeating: 0x5A, count: 32)

    @Test func aRegistrationVerifiesWithTheRelyingParty() async throws {
        let registration = try await fixture.register()
        #expect(registration.aaguid == AuthenticatorProfile.securityKey.aaguid)
        #expect(registration.format == .packed)
        #expect(registration.authenticatorData.flags.contains(.userPresent))
        #expect(registration.algorithm == .es256)
        let stored = try #require(await fixture.store.credential(id: registration.credentialID))
        #expect(stored.rpID == CommandsFixture.rpID)
    }

    @Test func theFirstSupportedAlgorithmIsUsedAndOthersSkipped() async throws {
        var request = CommandsFixture.makeCredential(clientDataHash: hash)
        request[4] = [["alg": -999, "type": "public-key"], ["alg": -8, "type": "public-key"]]
        let (status, response) = try await fixture.send(.makeCredential, .map(request))
        #expect(status == .ok)
        let authData = try AuthenticatorData(bytes: try #require(response?[2]?.bytesValue))
        #expect(try authData.attestedCredentialData?.publicKey.algorithm == .eddsa)
    }

    @Test(arguments: [1, 2, 3, 4] as [CBOR])
    func aMissingRequiredParameterIsMissingParameter(key: CBOR) async throws {
        var request = CommandsFixture.makeCredential(clientDataHash: hash)
        request[key] = nil
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .missingParameter)
    }

    /// One change to a valid request, and the status it must answer.
    @Test(
        arguments: [
            (1, .text("hash"), CTAPStatus.cborUnexpectedType),
            (2, ["name": "Example"], .missingParameter),
            (2, ["id": 7], .cborUnexpectedType),
            (3, ["name": "alice"], .missingParameter),
            (3, ["id": "not bytes"], .cborUnexpectedType),
            (4, [["alg": -999, "type": "public-key"]], .unsupportedAlgorithm),
            (4, [["alg": -7, "type": "other"]], .unsupportedAlgorithm),
            (4, [["type": "public-key"]], .missingParameter),
            (4, ["alg": -7], .cborUnexpectedType),
            (5, [["id": .bytes([1])]], .missingParameter),
            (6, ["credProtect": 7], .invalidParameter),
            (7, ["up": false], .invalidOption),
            (7, ["rk": 1], .cborUnexpectedType),
            (8, .bytes([]), .pinNotSet),
            (8, .bytes([1, 2, 3]), .missingParameter),
            (10, 3, .invalidOption),
        ] as [(CBOR, CBOR, CTAPStatus)])
    func aBrokenRequestAnswersItsStatus(key: CBOR, value: CBOR, expected: CTAPStatus) async throws {
        var request = CommandsFixture.makeCredential(clientDataHash: hash)
        request[key] = value
        #expect(try await fixture.send(.makeCredential, .map(request)).status == expected)
        #expect(await fixture.store.all().credentials.isEmpty)
    }

    @Test func aPINUVAuthParamWithoutATokenIsPINAuthInvalid() async throws {
        var request = CommandsFixture.makeCredential(clientDataHash: hash)
        request[8] = .bytes([UInt8](repeating: 1, count: 16))
        request[9] = 1
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .pinAuthInvalid)
        request[9] = 3
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .invalidParameter)
    }

    @Test func theAuthenticatorsOwnRefusalsKeepTheirStatus() async throws {
        var request = CommandsFixture.makeCredential(clientDataHash: hash)
        request[3] = ["id": .bytes([UInt8](repeating: 1, count: 65))]
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .invalidLength)
    }

    @Test func anExcludedCredentialIsRefusedAndNothingStored() async throws {
        let registration = try await fixture.register()
        var request = CommandsFixture.makeCredential(clientDataHash: hash, userID: [9])
        request[5] = [["id": .bytes(registration.credentialID), "type": "public-key"]]
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .credentialExcluded)
        #expect(await fixture.store.all().credentials.count == 1)
    }

    @Test func credProtectReachesTheAuthenticator() async throws {
        var request = CommandsFixture.makeCredential(clientDataHash: hash)
        request[6] = ["credProtect": 3, "unknownExtension": true]
        let (status, response) = try await fixture.send(.makeCredential, .map(request))
        #expect(status == .ok)
        let authData = try AuthenticatorData(bytes: try #require(response?[2]?.bytesValue))
        #expect(authData.extensions?["credProtect"] == 3)
    }
}
