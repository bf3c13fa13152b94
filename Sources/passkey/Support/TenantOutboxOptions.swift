import ArgumentParser
import PasskeyTenant

/// `tenant serve`'s local outbox and passwordless codes: the test route, the outbox
/// file and the codes' lifetime, over what `--config` says (`test_outbox`, `outbox_file`,
/// `otp_lifetime`).
struct TenantOutboxOptions: ParsableArguments {
    @Flag(
        name: .customLong("test-outbox"),
        help: """
            Serve GET /test/outbox?to=ADDRESS: the messages (passwordless codes and links, password resets, \
            invitations) the tenant would have sent ADDRESS, a JSON array, newest last. For tests only: the \
            messages hold codes in the clear.
            """)
    var testOutbox = false

    @Option(
        name: .customLong("outbox-file"),
        help: "Also append every message to FILE as one JSON line (created 0600 when missing).")
    var outboxFile: String?

    @Option(
        name: .customLong("otp-lifetime"),
        help: "How long a passwordless code or magic link is good for, in seconds (default 180).")
    var otpLifetime: Int?

    func validate() throws {
        if let otpLifetime, !(1...86_400).contains(otpLifetime) {
            throw ValidationError("--otp-lifetime must be between 1 and 86400 seconds.")
        }
    }

    /// Applies the flags given to `configuration`, after its configuration file.
    func apply(to configuration: inout TenantConfiguration) {
        if testOutbox { configuration.outbox.servesTestRoute = true }
        if let outboxFile { configuration.outbox.file = outboxFile }
        if let otpLifetime { configuration.outbox.otpLifetime = .seconds(otpLifetime) }
    }
}
