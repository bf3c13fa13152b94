/// A passphrase that never prints (STYLE §5): of a credential store, a sealed export, or sealed
/// session storage. Keys come from it through ``ScryptParameters/key(for:)``.
///
/// The libraries never read the environment; the CLI builds one from `PASSKEY_PASSPHRASE`.
public struct Passphrase: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The passphrase's UTF-8 bytes, as scrypt takes them.
    package let bytes: [UInt8]

    /// Wraps a passphrase.
    ///
    /// - Parameter text: the passphrase; used as its UTF-8 bytes.
    public init(_ text: String) {
        bytes = Array(text.utf8)
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
