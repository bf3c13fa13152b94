/// A token's user PIN (`CKU_USER`), which never prints (STYLE §5); read from the environment or a
/// file, never a command-line flag.
public struct PKCS11PIN: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The PIN's UTF-8 bytes, as `C_Login` takes them.
    let bytes: [UInt8]

    /// Wraps a PIN.
    ///
    /// - Parameter text: the PIN.
    public init(_ text: String) {
        bytes = Array(text.utf8)
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
