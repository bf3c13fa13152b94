import WebAuthn

/// The bearer token of a control server: random, or read from a file the operator keeps. It
/// prints as `<redacted>` (STYLE §5); the server prints it once, in its start line, on purpose.
public struct ControlToken: Sendable, CustomStringConvertible, CustomReflectable {
    /// The token's text.
    public let value: String

    /// A token of 32 random bytes, base64url.
    public static func random() -> ControlToken {
        ControlToken(Base64URL.encode(SecureRandom.bytes(32)))
    }

    /// Wraps a token.
    ///
    /// - Parameter value: the token; surrounding white space (a file's last newline) is dropped.
    public init(_ value: String) {
        self.value = String(value.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// Whether `header` is `Bearer <this token>` (RFC 6750 §2.1), compared in constant time.
    func accepts(_ header: String?) -> Bool {
        guard let presented = Self.bearer(header) else { return false }
        return constantTimeEquals(Array(presented.utf8), Array(value.utf8))
    }

    /// The credential of an `Authorization: Bearer …` header (RFC 6750 §2.1), if it is one.
    static func bearer(_ header: String?) -> String? {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        return String(header.dropFirst(7))
    }

    public var description: String { "ControlToken(<redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
