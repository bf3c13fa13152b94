/// A WebAuthn enumeration carried as a `DOMString`: an open set of strings.
///
/// Clients and relying parties ignore values they do not know (WebAuthn L3 §2.1.1), so these
/// types are not Swift `enum`s: an unknown value decodes, compares and re-encodes unchanged.
/// Conforming types declare `rawValue`, `init(rawValue:)` and their known values as `static let`s.
public protocol OpenStringEnumeration:
    RawRepresentable<String>, Sendable, Hashable, Codable, ExpressibleByStringLiteral, CustomStringConvertible
{
    /// Wraps a wire string, known or not.
    init(rawValue: String)
}

extension OpenStringEnumeration {
    /// Wraps a string literal, as ``init(rawValue:)`` does.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The wire string.
    public var description: String { rawValue }
}
