public import WebAuthn

/// The system call that failed under a CTAPHID transport (`socket`, `bind`, `listen`, `open`,
/// `read`, `write`, …): the code of ``CTAPHIDTransportError``, named as the system names the call,
/// so `strace` and the manual pages find it.
public struct CTAPHIDSystemCall: ErrorCode {
    public let rawValue: String

    /// Wraps a call's name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
