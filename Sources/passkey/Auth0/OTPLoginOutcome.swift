import PasskeyKit

/// What `passkey login --otp` reports.
struct OTPLoginOutcome: CommandOutput {
    let session: SessionReport
    /// `email` or `sms`.
    let connection: String

    var text: String {
        "Logged in as \(session.user.text) with a one-time code (connection \(connection)).\n" + session.details
    }
}
