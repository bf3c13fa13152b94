/// Why a command failed: the status byte it answers and, for logs and tests, a reason.
///
/// The wire carries only ``status`` (CTAP 2.1 §8.2); the reason never holds key material.
struct CTAPError: Error, CustomStringConvertible {
    /// The status the command answers.
    let status: CTAPStatus
    /// Why, in words.
    let reason: String

    init(_ status: CTAPStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    var description: String { "\(status): \(reason)" }
}
