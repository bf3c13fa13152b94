import Foundation
import PasskeyAuthenticator
import PasskeyCTAP
import TestSupport
import Testing
import WebAuthn

/// The PIN state in a ``FileCredentialStore`` (CTAP 2.1 §6.5.2): sealed under the store key,
/// retries kept across a restart, the power-cycle block not.
@Suite(.temporaryDirectory) struct PINStateStoreTests {
    func device(_ path: String) async throws -> CTAPDevice {
        let store = try await FileCredentialStore(directory: path)
        return CTAPDevice(
            authenticator: SoftwareAuthenticator(store: store, profile: .securityKey), state: store,
            clock: ManualClock().clock)
    }

    @Test func retriesSurviveARestartAndThePINIsSealed() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        var client = PINClient(device: try await device(path))
        #expect(try await client.setPIN("314159") == .ok)
        for _ in 0..<3 {
            _ = try await client.requestToken("000000", [.getAssertion], rpID: "x")
        }
        #expect(try await client.retries() == (5, true))

        client = PINClient(device: try await device(path))
        #expect(try await client.retries() == (5, false))
        _ = try await client.token("314159", [.getAssertion], rpID: "x")
        #expect(try await client.retries() == (8, false))

        let file = try #require(
            FileManager.default.contents(atPath: path + "/ctapstate.bin").map { [UInt8]($0) })
        #expect(!file.isEmpty)
        for secret in [PINClient.hash("314159"), Array("314159".utf8), Array("pinRetries".utf8)] {
            #expect(!file.indices.contains { file[$0...].starts(with: secret) })
        }
    }

    @Test func aTamperedStateIsRefusedNotReset() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let client = PINClient(device: try await device(path))
        #expect(try await client.setPIN("314159") == .ok)
        let statePath = path + "/ctapstate.bin"
        var bytes = try #require(FileManager.default.contents(atPath: statePath).map { [UInt8]($0) })
        bytes[bytes.count / 2] ^= 1
        #expect(FileManager.default.createFile(atPath: statePath, contents: Data(bytes)))
        let tampered = PINClient(device: try await device(path))
        #expect(try await tampered.send(0x01).status == .other)
        #expect(try await tampered.setPIN("000000") == .other)
    }
}
