public import WebAuthn

/// The one error type of the credential stores.
///
/// A machine-readable ``Code``, a human ``reason`` and, when one file is to blame, its ``file``
/// path, so the CLI can say which credential to restore or delete. Neither the reason nor the
/// description ever carries key material, sealed bytes or a passphrase (STYLE §5).
///
/// Two errors are equal when their codes are equal; the reason and the file are for people.
public struct StoreError: CodedError, Hashable {
    /// What went wrong, as a stable, kebab-case identifier.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A credential with this ID is already stored.
        public static let duplicate = Code(rawValue: "duplicate")
        /// No credential has this ID.
        public static let notFound = Code(rawValue: "not-found")
        /// A file of the store does not parse, or does not authenticate under the store key.
        public static let corrupt = Code(rawValue: "corrupt")
        /// The passphrase does not open the store, or the store needs one and none was given.
        public static let wrongPassphrase = Code(rawValue: "wrong-passphrase")
        /// Another process held the store's lock for longer than the lock timeout.
        public static let locked = Code(rawValue: "locked")
        /// A system call failed; the reason carries `strerror`'s text.
        public static let io = Code(rawValue: "io")
        /// The file system is full (`ENOSPC`, `EDQUOT`); the last committed state is intact.
        public static let diskFull = Code(rawValue: "disk-full")
        /// The store was written by a newer format than this library reads.
        public static let unsupportedVersion = Code(rawValue: "unsupported-version")
        /// The store directory belongs to another user.
        public static let insecure = Code(rawValue: "insecure")
        /// A credential the caller passed in cannot be stored as it is (an ID too long for a file
        /// name, or a blob that is not this store's for it).
        public static let invalidCredential = Code(rawValue: "invalid-credential")
        /// The store cannot do what was asked: an algorithm it has no keys for, or taking in a key
        /// when its keys can only be made inside it (an HSM).
        public static let unsupported = Code(rawValue: "unsupported")
        /// The signature counter is at `UInt32.max` and cannot increase (WebAuthn L3 §6.1.1).
        public static let counterExhausted = Code(rawValue: "counter-exhausted")
    }

    /// What went wrong.
    public let code: Code
    /// Why, in words fit for a terminal.
    public let reason: String
    /// The path of the file to blame, when there is one.
    public let file: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - reason: why, in words fit for a terminal; never key material or a passphrase.
    ///   - file: the path of the file to blame, if any.
    public init(_ code: Code, _ reason: String, file: String? = nil) {
        self.code = code
        self.reason = reason
        self.file = file
    }

    public var description: String {
        if let file {
            return "\(code): \(file): \(reason)"
        }
        return "\(code): \(reason)"
    }
}
