import Foundation
import PasskeyAuthenticator
import PasskeyCTAP
import TestSupport
import Testing
import WebAuthn

/// Built-in UV's retries in the device state (CTAP 2.1 §6.5.2 `uvRetries`): sealed in a
/// ``FileCredentialStore`` with the PIN's, kept across a restart, and a state written before they
/// were kept still opens, with every retry.
@Suite(.temporaryDirectory) struct UVStateStoreTests {
    func device(_ path: String, _ userVerification: UserVerification) async throws -> CTAPDevice {
        let store = try await FileCredentialStore(directory: path)
        return CTAPDevice(
            authenticator: SoftwareAuthenticator(store: store, profile: .securityKey), state: store,
            userVerification: userVerification, clock: ManualClock().clock)
    }

    @Test func retriesSurviveARestart() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let denying = PINClient(device: try await device(path, .deny))
        for _ in 0..<2 {
            #expect(try await denying.requestUVToken([.getAssertion], rpID: "x").status == .uvInvalid)
        }
        let restarted = PINClient(device: try await device(path, .automatic))
        #expect(try await restarted.uvRetries() == 3)
        #expect(try await restarted.requestUVToken([.getAssertion], rpID: "x").status == .ok)
        #expect(try await PINClient(device: try await device(path, .deny)).uvRetries() == 5)
    }

    @Test func aStateWrittenBeforeUVRetriesOpensWithEveryRetry() throws {
        let old = #"{"pinCodePoints":4,"pinRetries":6,"minPINLength":4,"forcePINChange":false,"alwaysUv":true}"#
        let state = try JSONDecoder().decode(CTAPDeviceState.self, from: Data(old.utf8))
        #expect(state.uvRetries == CTAPDeviceState.maxUVRetries)
        #expect(state.pinRetries == 6 && state.alwaysUv && state.pinHash == nil)
        var spent = state
        spent.uvRetries = 1
        #expect(try JSONDecoder().decode(CTAPDeviceState.self, from: JSONEncoder().encode(spent)) == spent)
    }
}
