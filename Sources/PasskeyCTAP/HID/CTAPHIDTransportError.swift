package import BlockingIO
public import WebAuthn

/// A socket call that failed while ``CTAPHIDSocketServer`` was making its socket.
///
/// As a `CodedError`: the code is the call (`socket`, `bind`, `chmod`, `listen`), the reason the
/// system's text, the cause the failed call; `description` keeps the call and the path together
/// as the system tools print them (`bind /tmp/key.sock: Address already in use`).
public struct CTAPHIDSocketError: CodedError, Hashable {
    /// The call that failed.
    public typealias Code = CTAPHIDSystemCall

    /// The call that failed.
    public let code: Code
    /// The socket's path.
    public let path: String
    /// Why, in the system's words.
    public let reason: String
    /// The failed system call.
    public let cause: (any Error)?

    /// The call: `socket`, `bind`, `chmod`, `listen`.
    public var operation: String { code.rawValue }

    /// The error of a failed system call.
    package init(_ error: SystemCallError) {
        code = Code(rawValue: error.operation)
        path = error.path
        reason = error.reason
        cause = error
    }

    /// `operation path: reason`, for the terminal.
    public var description: String { "\(operation) \(path): \(reason)" }
}
