import Glibc

/// A system call that failed: which, on what path, and `errno` with its `strerror` text.
///
/// Each library maps it to its own error type in one place (`StoreError`,
/// `CredentialsStorageError`); the text is safe to show, as it holds no file content.
package struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call: `open`, `write`, `fsync`, `rename`, ….
    package let operation: String
    /// The file or directory.
    package let path: String
    /// The `errno` value.
    package let number: Int32

    /// The error of the call that just failed, from `errno`.
    ///
    /// - Parameters:
    ///   - operation: the call.
    ///   - path: the path it was given.
    package init(_ operation: String, _ path: String) {
        self.operation = operation
        self.path = path
        self.number = errno
    }

    /// An error with a given `errno` value, for a failure found without a system call.
    package init(_ operation: String, _ path: String, number: Int32) {
        self.operation = operation
        self.path = path
        self.number = number
    }

    /// Whether the device or the user's quota is full (`ENOSPC`, `EDQUOT`).
    package var isDiskFull: Bool { number == ENOSPC || number == EDQUOT }

    /// `strerror`'s text for ``number``.
    package var reason: String { String(cString: strerror(number)) }

    package var description: String { "\(operation) \(path): \(reason)" }
}
