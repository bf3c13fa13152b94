package import BlockingIO
import Glibc
public import WebAuthn

/// Why ``CTAPHIDUHIDDevice`` cannot be, or stopped being, a HID device.
///
/// As a `CodedError`: the code is the call that failed (`open`, `read`, `write`, `poll`, `pipe`),
/// the reason the system's text with what to do where that is known, the cause the failed system
/// call; `description` is `operation: reason`.
public struct CTAPHIDUHIDError: CodedError, Hashable {
    /// The call that failed.
    public typealias Code = CTAPHIDSystemCall

    /// The call that failed.
    public let code: Code
    /// Why, in the system's words, with what to do where that is known.
    public let reason: String
    /// The failed system call, if one failed (an event that does not parse has none).
    public let cause: (any Error)?

    /// The call: `open`, `read`, `write`.
    public var operation: String { code.rawValue }

    /// Creates an error found without a failed call (an event that does not parse).
    init(_ operation: String, reason: String) {
        code = Code(rawValue: operation)
        self.reason = reason
        cause = nil
    }

    /// The error of a failed read or write on the node.
    package init(_ error: SystemCallError) {
        code = Code(rawValue: error.operation)
        reason = error.reason
        cause = error
    }

    /// Opening the node failed: the two usual causes get their remedy.
    static func opening(_ error: SystemCallError) -> CTAPHIDUHIDError {
        let remedy =
            switch error.number {
            case ENOENT, ENODEV, ENXIO:
                " (this system has no UHID: load the module with `modprobe uhid`)"
            case EACCES, EPERM:
                " (give your group read and write access to it with a udev rule: "
                    + "KERNEL==\"uhid\", GROUP=\"uhid\", MODE=\"0660\")"
            default:
                ""
            }
        return CTAPHIDUHIDError(
            code: Code(rawValue: "open"), reason: "\(error.path): \(error.reason)\(remedy)", cause: error)
    }

    private init(code: Code, reason: String, cause: SystemCallError) {
        self.code = code
        self.reason = reason
        self.cause = cause
    }
}
