import PasskeyAuthenticator
import PasskeyCTAP

// The Swift samples of PasskeyCTAP.docc, each between snippet markers (SnippetTests checks that the
// article's sample is this code, to the letter). Compiled, not run: the socket and the UHID device
// run in HIDSocketTests and UHIDDeviceTests.

/// PasskeyCTAP.docc, RunningAFIDODevice: a store served as a security key.
func articleRunningAFIDODevice() async throws {
    // snippet.begin
    let store = try await FileCredentialStore(directory: "/tmp/key")
    let commands = CTAPDevice(
        authenticator: SoftwareAuthenticator(store: store, profile: .securityKey), presence: .automatic)
    let device = CTAPHIDDevice(handler: commands)
    try await CTAPHIDSocketServer(device: device, path: "/tmp/key.sock").run()
    // or, as a USB HID security key: try await CTAPHIDUHIDDevice(device: device).run()
    // snippet.end
}

/// PasskeyCTAP.docc, RunningAFIDODevice: a device that verifies its users itself.
func articleBuiltInUserVerification(
    store: FileCredentialStore, askTheOwner: @escaping @Sendable (String?) async -> Bool
) -> CTAPDevice {
    // snippet.begin
    let commands = CTAPDevice(
        authenticator: SoftwareAuthenticator(store: store, profile: .securityKey), state: store,
        userVerification: .ask { request in await askTheOwner(request.rpID) })
    // snippet.end
    return commands
}
