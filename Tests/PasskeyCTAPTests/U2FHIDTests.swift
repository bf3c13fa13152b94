import PasskeyAuthenticator
import Testing
import WebAuthn

@testable import PasskeyCTAP

/// `CTAPHID_MSG` (CTAP 2.1 §11.2.9.1.1): routed to the handler's U2F side when it speaks U2F,
/// with `NMSG` out of the capabilities; `ERR_INVALID_CMD` and `NMSG` when it does not.
@Suite struct U2FHIDTests {
    /// A host of a device over the security-key profile, or over one without ES256 (no U2F).
    private func host(u2f: Bool = true, presence: UserPresence = .automatic) -> HIDHost {
        var profile = AuthenticatorProfile.securityKey
        if !u2f {
            profile.algorithms = [.eddsa]
        }
        let commands = CTAPDevice(
            authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: profile),
            presence: presence)
        return HIDHost(CTAPHIDDevice(handler: commands))
    }

    private func capabilities(_ host: inout HIDHost) async throws -> UInt8 {
        let answer = try await host.transact(
            CTAPHIDMessage(
                channel: CTAPHIDDevice.broadcastChannel, command: .initialize, payload: [1, 2, 3, 4, 5, 6, 7, 8]))
        return try #require(answer.payload.last)
    }

    @Test func aU2FDeviceLeavesNMSGOutAndAnswersMSG() async throws {
        var host = host()
        #expect(try await capabilities(&host) == 0x05, "WINK | CBOR")
        let channel = try await host.allocate()
        let answer = try await host.transact(
            CTAPHIDMessage(channel: channel, command: .msg, payload: U2FClient.apdu(ins: 0x03)))
        #expect(answer.command == CTAPHIDCommand.msg.rawValue && answer.channel == channel)
        #expect(answer.payload == Array("U2F_V2".utf8) + [0x90, 0x00])
    }

    @Test func aDeviceWithoutU2FSetsNMSGAndRefusesMSG() async throws {
        var host = host(u2f: false)
        #expect(try await capabilities(&host) == 0x0D, "WINK | CBOR | NMSG")
        let channel = try await host.allocate()
        let answer = try await host.transact(
            CTAPHIDMessage(channel: channel, command: .msg, payload: U2FClient.apdu(ins: 0x03)))
        #expect(answer.errorCode == .invalidCommand && answer.channel == channel)
    }

    @Test func aRegistrationCrossesPacketsBothWays() async throws {
        var host = host()
        let channel = try await host.allocate()
        let answer = try await host.transact(
            CTAPHIDMessage(
                channel: channel, command: .msg,
                payload: U2FClient.apdu(ins: 0x01, data: [UInt8](repeating: 5, count: 64))))
        #expect(answer.command == CTAPHIDCommand.msg.rawValue)
        #expect(answer.payload.count > 57 && answer.payload.suffix(2) == [0x90, 0x00])
        #expect(answer.payload.first == 0x05)
    }

    /// A user who never answers: the MSG is answered `SW_CONDITIONS_NOT_SATISFIED` at once, with
    /// no keep-alive before it, and the channel is free for the next poll.
    @Test func anAbsentUserIsAnsweredAtOnceWithoutKeepAlive() async throws {
        let absent = UserPresence.ask(timeout: .seconds(3600)) { _ in
            try? await Task.sleep(for: .seconds(3600))
            return false
        }
        var host = host(presence: absent)
        let channel = try await host.allocate()
        let register = CTAPHIDMessage(
            channel: channel, command: .msg, payload: U2FClient.apdu(ins: 0x01, data: [UInt8](repeating: 5, count: 64)))
        for _ in 0..<2 {
            await host.send(register)
            let answer = try await host.receive()
            #expect(answer.command == CTAPHIDCommand.msg.rawValue, "no keep-alive first")
            #expect(answer.payload == [0x69, 0x85])
        }
        let ping = CTAPHIDMessage(channel: channel, command: .ping, payload: [1])
        #expect(try await host.transact(ping) == ping)
    }
}
