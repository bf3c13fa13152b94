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
    }

    @Test func refusesResetByDefault() throws {
        let command = try #require(try Passkey.parseAsRoot(["device", "--socket", "d.sock"]) as? Passkey.Device)
        #expect(!command.allowReset)
        #expect(command.store.store == nil)
    }

    @Test(arguments: [["device"], ["device", "--socket"], ["device", "--uhid"]])
    func refusesWhatItCannotServe(arguments: [String]) {
        #expect(throws: (any Error).self) { try Passkey.parseAsRoot(arguments) }
    }
}
