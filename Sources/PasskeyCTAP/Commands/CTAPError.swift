import WebAuthn

/// Why a command failed: the status byte it answers and, for logs and tests, a reason.
///
/// The wire carries only ``status`` (CTAP 2.1 §8.2); the reason never holds key material. As a
/// `CodedError` its code is the status, whose name is the specification's
/// (`CTAP2_ERR_NO_CREDENTIALS`), and `description` is `<status>: <reason>`.
struct CTAPError: CodedError {
    /// The status the command answers.
    let status: CTAPStatus
    /// Why, in words.
    let reason: String

    init(_ status: CTAPStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    /// The status, as `CodedError` names it.
    var code: CTAPStatus { status }
}
