import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

@testable import PasskeyCTAP

/// CTAPHID in front of the real command layer: a registration and an assertion that cross many
/// packets each way, verified by the relying party, and a device that no stream of reports wedges.
@Suite struct HIDCommandLayerTests {
    let fixture = CommandsFixture()

    @Test func aRegistrationAndAnAssertionOverHIDVerify() async throws {
        var host = HIDHost(CTAPHIDDevice(handler: fixture.device, messageTimeout: .seconds(60)))
        let channel = try await host.allocate()

        let challenge = SecureRandom.bytes(32)
        let clientData = CommandsFixture.clientData(.create, challenge: challenge)
        let request = CBOR.map(CommandsFixture.makeCredential(clientDataHash: clientData.hash))
        let created = try await host.transact(
            CTAPHIDMessage(
                channel: channel, command: .cbor, payload: [CTAPCommand.makeCredential.rawValue] + request.encoded()))
        #expect(created.channel == channel && created.command == CTAPHIDCommand.cbor.rawValue)
        #expect(created.payload.first == CTAPStatus.ok.rawValue && created.payload.count > 2 * 59)
        let body = try CBOR(decoding: created.payload.dropFirst())
        let attestationObject: CBOR = [
            "fmt": try #require(body[1]), "attStmt": try #require(body[3]), "authData": try #require(body[2]),
        ]
        let registration = try RelyingParty(id: CommandsFixture.rpID).verifyRegistration(
            clientDataJSON: clientData.json, attestationObject: attestationObject.encoded(), challenge: challenge)

        let assertionChallenge = SecureRandom.bytes(32)
        let assertionData = CommandsFixture.clientData(.get, challenge: assertionChallenge)
        let allowList: [CBOR] = [["id": .bytes(registration.credentialID), "type": "public-key"]]
        let get: CBOR = [1: .text(CommandsFixture.rpID), 2: .bytes(assertionData.hash), 3: .array(allowList)]
        let asserted = try await host.transact(
            CTAPHIDMessage(
                channel: channel, command: .cbor, payload: [CTAPCommand.getAssertion.rawValue] + get.encoded()))
        #expect(asserted.payload.first == CTAPStatus.ok.rawValue)
        let answer = try CBOR(decoding: asserted.payload.dropFirst())
        let record = CredentialRecord(
            id: registration.credentialID, publicKey: registration.credentialPublicKey,
            signCount: registration.signCount, userHandle: [1, 2, 3, 4])
        let authentication = try RelyingParty(id: CommandsFixture.rpID).verifyAuthentication(
            credentialID: try #require(answer[1]?["id"]?.bytesValue), clientDataJSON: assertionData.json,
            authenticatorData: try #require(answer[2]?.bytesValue), signature: try #require(answer[3]?.bytesValue),
            userHandle: answer[4]?["id"]?.bytesValue, challenge: assertionChallenge, credential: record,
            allowCredentials: [registration.credentialID], userIdentified: .beforeCeremony)
        #expect(authentication.signCount > registration.signCount)
    }

    @Test(arguments: 0..<4)
    func randomReportsNeverWedgeTheDevice(seed: Int) async throws {
        var host = HIDHost(CTAPHIDDevice(handler: fixture.device, messageTimeout: .milliseconds(20)))
        let channel = try await host.allocate()
        var generator = SplitMix64(seed: UInt64(seed))
        for _ in 0..<300 {
            var report = (0..<64).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            // Mostly the allocated channel or the broadcast one, so the reports reach the state machine.
            let channels: [UInt32] = [
                channel, CTAPHIDDevice.broadcastChannel, UInt32(truncatingIfNeeded: generator.next()),
            ]
            let target = channels[Int(generator.next() % 3)]
            report.replaceSubrange(0..<4, with: (0..<4).reversed().map { UInt8(target >> (8 * $0) & 0xFF) })
            await host.send(report: report)
        }
        // Whatever state that left, INIT resynchronizes the channel and the device answers again:
        // no settle time, the drain below waits for the INIT answer itself (each report above was
        // taken in order, and INIT aborts this channel's message or command, whose timers and
        // late answers the device then drops).
        let fresh = try await resynchronizedChannel(&host, channel)
        let ping = CTAPHIDMessage(channel: fresh, command: .ping, payload: [1, 2, 3])
        var answer = try await host.transact(ping)
        while answer.channel != fresh { answer = try await host.receive() }
        #expect(answer == ping)
    }

    /// Drains what the random reports caused until the answer to a new INIT comes.
    private func resynchronizedChannel(_ host: inout HIDHost, _ channel: UInt32) async throws -> UInt32 {
        let nonce: [UInt8] = [0xA5, 0x5A, 0xA5, 0x5A, 0xA5, 0x5A, 0xA5, 0x5A]
        await host.send(CTAPHIDMessage(channel: channel, command: .initialize, payload: nonce))
        while true {
            let message = try await host.receive()
            if message.channel == channel, message.command == CTAPHIDCommand.initialize.rawValue,
                message.payload.prefix(8).elementsEqual(nonce)
            {
                return channel
            }
        }
    }
}
