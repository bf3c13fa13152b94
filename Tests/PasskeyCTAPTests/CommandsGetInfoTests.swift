import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// authenticatorGetInfo (CTAP 2.1 §6.4) says what the software security key really supports.
@Suite struct CommandsGetInfoTests {
    @Test func getInfoReportsTheAuthenticator() async throws {
        let fixture = CommandsFixture()
        let (status, response) = try await fixture.send(.getInfo)
        #expect(status == .ok)
        let info = try #require(response)
        let profile = AuthenticatorProfile.securityKey
        #expect(info[1] == ["U2F_V2", "FIDO_2_0", "FIDO_2_1"])
        #expect(info[2] == ["hmac-secret", "credProtect", "credBlob", "largeBlobKey"])
        #expect(info[3] == .bytes(profile.aaguid.bytes))
        #expect(
            info[4] == [
                "rk": true, "up": true, "plat": false, "clientPin": false, "pinUvAuthToken": true,
                "makeCredUvNotRqd": true, "alwaysUv": false, "setMinPINLength": true, "authnrCfg": true,
                "credMgmt": true, "credentialMgmtPreview": true, "largeBlobs": true,
            ])
        #expect(info[5] == 7608)
        #expect(info[6] == [2, 1])
        #expect(info[9] == ["usb"])
        #expect(info[10] == .array(profile.algorithms.map { ["alg": CBOR($0.rawValue), "type": "public-key"] }))
        #expect(info[12] == false && info[13] == 4 && info[14] == 2 && info[16] == 0)
        #expect(info[15] == 32)
    }

    @Test func getInfoIsCanonicalCBOR() async throws {
        let answer = await CommandsFixture().device.handle([0x04], context: CTAPTransaction(channel: 1))
        let item = try CBOR(decoding: answer.dropFirst())
        #expect(item.encoded() == Array(answer.dropFirst()))
    }
}
