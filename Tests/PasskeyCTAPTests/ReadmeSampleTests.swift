import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// README "As a FIDO device": the in-process sample, run.
@Suite struct ReadmeSampleTests {
    @Test func aDeviceInProcessAnswersGetInfo() async throws {
        // snippet.begin
        let store = InMemoryCredentialStore()
        let device = CTAPDevice(
            authenticator: SoftwareAuthenticator(store: store, profile: .securityKey),
            state: store, presence: .automatic, credentials: store)
        let answer = await device.handle([CTAPCommand.getInfo.rawValue], context: CTAPTransaction(channel: 1))
        let info = try CBOR(decoding: answer.dropFirst())  // answer[0] is CTAP2_OK
        // snippet.end
        #expect(answer.first == CTAPStatus.ok.rawValue)
        #expect(info[1] == ["U2F_V2", "FIDO_2_0", "FIDO_2_1"])
        #expect(info[4]?["credMgmt"] == true && info[4]?["clientPin"] == false)
    }
}
