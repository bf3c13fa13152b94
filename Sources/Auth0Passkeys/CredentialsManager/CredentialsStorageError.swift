package import BlockingIO
public import WebAuthn

/// Why a ``FileCredentialsStorage`` could not read or write an entry; its text names the file
/// and never holds an entry's bytes, a key or a passphrase.
public struct CredentialsStorageError: CodedError, Hashable {
    /// What went wrong.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A system call failed (``CredentialsStorageError/errorNumber`` says why); `ENOSPC`
        /// is ``diskFull``.
        public static let io = Code(rawValue: "io")
        /// The device or the user's quota is full; nothing was changed.
        public static let diskFull = Code(rawValue: "diskFull")
        /// The entry was sealed under another key: another key file, another passphrase, or
        /// the passphrase was not given (or was, for a key-file storage).
        public static let wrongKey = Code(rawValue: "wrongKey")
        /// The entry, or the storage's `.sealing` file, is truncated or was altered.
        public static let tampered = Code(rawValue: "tampered")
    }

    /// What went wrong.
    public let code: Code
    /// The file or directory.
    public let path: String
    /// Why, in words.
    public let reason: String
    /// The `errno` value of a failed system call.
    public let errorNumber: Int32?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - path: the file or directory.
    ///   - reason: why, in words; never an entry's bytes, a key or a passphrase.
    public init(_ code: Code, path: String, _ reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
        self.errorNumber = nil
    }

    public var description: String { "\(code): \(path): \(reason)" }
}

extension CredentialsStorageError: SystemCallFailure {
    /// The error of a failed system call: the one place where the storage maps `Errno`
    /// (`SystemCallError`, from BlockingIO's `OpenFile`) to its own error.
    package init(_ error: SystemCallError) {
        code = error.isDiskFull ? .diskFull : .io
        path = error.path
        reason = "\(error.operation): \(error.reason)"
        errorNumber = error.number
    }
}
