package import SystemPackage

/// A system call that failed: which, on what path, and the `Errno` it returned.
///
/// ``OpenFile`` throws it as its `Failure`, which each library makes its own error in one place
/// (``SystemCallFailure``: `StoreError`, `CredentialsStorageError`); the text is safe to show, as
/// it holds no file content.
package struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call: `open`, `write`, `fsync`, `rename`, `flock`, ….
    package let operation: String
    /// The file or directory.
    package let path: String
    /// What the call returned.
    package let errno: Errno
    /// Why, when the system's text for ``errno`` would not say it: a lock not released in time,
    /// a file over the size its reader allows.
    package let detail: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - operation: the call.
    ///   - path: the path it was given.
    ///   - errno: what it returned, or what stands for a failure found without a call (`EFBIG`,
    ///     `ETIMEDOUT`).
    ///   - detail: why in words, when `strerror`'s text would not say it.
    package init(_ operation: String, _ path: String, _ errno: Errno, detail: String? = nil) {
        self.operation = operation
        self.path = path
        self.errno = errno
        self.detail = detail
    }

    /// The `errno` value.
    package var number: Int32 { errno.rawValue }

    /// Whether the device or the user's quota is full (`ENOSPC`, `EDQUOT`).
    package var isDiskFull: Bool { errno == .noSpace || errno == .diskQuotaExceeded }

    /// Whether a file was larger than its reader allows (``OpenFile/readAll(limit:)``, `EFBIG`).
    package var isOverLimit: Bool { errno == .fileTooLarge }

    /// Whether a lock was not released in time (``OpenFile/lock(exclusive:timeout:)``, `ETIMEDOUT`).
    package var isTimedOut: Bool { errno == .timedOut }

    /// ``detail``, else `strerror`'s text for ``errno``.
    package var reason: String { detail ?? errno.description }

    package var description: String { "\(operation) \(path): \(reason)" }
}

/// An error that a failed system call becomes: each library's own, made from a
/// ``SystemCallError`` in this one initializer, so that ``OpenFile`` throws it directly.
package protocol SystemCallFailure: Error {
    /// The error for a failed system call.
    init(_ error: SystemCallError)
}

extension SystemCallError: SystemCallFailure {
    /// The error itself, for code that maps it later (``SmallFile``).
    package init(_ error: SystemCallError) {
        self = error
    }
}
