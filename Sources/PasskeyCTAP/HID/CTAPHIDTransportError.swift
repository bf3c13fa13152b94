package import BlockingIO
import Glibc
public import WebAuthn

/// Why a CTAPHID transport (``CTAPHIDSocketServer``, ``CTAPHIDUHIDDevice``) cannot start, or
/// stopped serving.
///
/// As a `CodedError`: the code is the system call that failed (`socket`, `bind`, `chmod`,
/// `listen`, `open`, `read`, `write`, …), the reason the system's text with what to do where that
/// is known, the cause the failed call (an event that does not parse has none). `description`
/// keeps the call and the path together as the system tools print them where the error names a
/// path (the socket's: `bind /tmp/key.sock: Address already in use`), and is `operation: reason`
/// otherwise (`open: /dev/uhid: No such file or directory (…)`).
public struct CTAPHIDTransportError: CodedError, Hashable {
    /// The call that failed.
    public typealias Code = CTAPHIDSystemCall

    /// The call that failed.
    public let code: Code
    /// The path of the socket that could not be made; nil for the UHID device, whose node's path
    /// is in ``reason`` where it matters (opening it).
    public let path: String?
    /// Why, in the system's words, with what to do where that is known.
    public let reason: String
    /// The failed system call, if one failed.
    public let cause: (any Error)?

    /// The call: `socket`, `bind`, `open`, `read`, `write`, ….
    public var operation: String { code.rawValue }

    /// The error of a failed system call, naming the call's path (making a socket).
    package init(_ error: SystemCallError) {
        code = Code(rawValue: error.operation)
        path = error.path
        reason = error.reason
        cause = error
    }

    /// An error that names no path: a failed read or write on the UHID node (`cause`), or an
    /// event that does not parse (no cause).
    init(_ operation: String, reason: String, cause: SystemCallError? = nil) {
        code = Code(rawValue: operation)
        path = nil
        self.reason = reason
        self.cause = cause
    }

    /// A failed read or write on the UHID node.
    static func serving(_ error: SystemCallError) -> CTAPHIDTransportError {
        CTAPHIDTransportError(error.operation, reason: error.reason, cause: error)
    }

    /// Opening the UHID node failed: the two usual causes get their remedy.
    static func opening(_ error: SystemCallError) -> CTAPHIDTransportError {
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
        return CTAPHIDTransportError("open", reason: "\(error.path): \(error.reason)\(remedy)", cause: error)
    }

    /// `operation path: reason` when the error names a path, else `operation: reason`, for the
    /// terminal.
    public var description: String {
        guard let path else { return "\(operation): \(reason)" }
        return "\(operation) \(path): \(reason)"
    }
}
