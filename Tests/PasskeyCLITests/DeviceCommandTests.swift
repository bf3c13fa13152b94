import ArgumentParser
import Testing

@testable import passkey

/// `passkey device`'s arguments (the device itself: Tests/Interop/test_ctap_device.py, with python-fido2).
@Suite struct DeviceCommandTests {
    @Test func parsesEveryOption() throws {
        let command = try #require(
            try Passkey.parseAsRoot(["device", "--socket", "/tmp/d.sock", "--store", "/tmp/s", "--allow-reset"])
                as? Passkey.Device)
        #expect(command.socket == "/tmp/d.sock")
        #expect(command.store.store == "/tmp/s")
        #expect(command.allowReset)
        #expect(command.presence == .auto)
        #expect(command.uv == nil, "no built-in user verification unless asked for")
    }

    @Test func takesABuiltInUserVerificationPolicy() throws {
        for policy in Passkey.Device.Presence.allCases {
            let command = try #require(
                try Passkey.parseAsRoot(["device", "--socket", "d.sock", "--uv", policy.rawValue]) as? Passkey.Device)
            #expect(command.uv == policy)
        }
    }

    @Test func takesUHIDAndAPresencePolicy() throws {
        let command = try #require(
            try Passkey.parseAsRoot(["device", "--uhid", "--presence", "ask"]) as? Passkey.Device)
        #expect(command.uhid && command.socket == nil)
        #expect(command.presence == .ask)
        let denying = try #require(
            try Passkey.parseAsRoot(["device", "--socket", "d.sock", "--presence", "deny"]) as? Passkey.Device)
        #expect(denying.presence == .deny)
    }

    @Test func refusesResetByDefault() throws {
        let command = try #require(try Passkey.parseAsRoot(["device", "--socket", "d.sock"]) as? Passkey.Device)
        #expect(!command.allowReset)
        #expect(command.store.store == nil)
    }

    @Test(arguments: [
        ["device"], ["device", "--socket"], ["device", "--socket", "d.sock", "--uhid"],
        ["device", "--uhid", "--presence", "sometimes"], ["device", "--uhid", "--uv", "pin"],
        ["device", "--uhid", "--uv"],
    ])
    func refusesWhatItCannotServe(arguments: [String]) {
        #expect(throws: (any Error).self) { try Passkey.parseAsRoot(arguments) }
    }
}
