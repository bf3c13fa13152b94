// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension AuthenticationExtensionsPRFValuesJSON: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("first", \.first), .member("second", \.second),
        ])

    package static var unread: Self { Self(first: Base64URL([])) }
}

/// One or two PRF inputs or outputs of the `prf` extension, in JSON form (WebAuthn L3 §10.1.4).
///
/// ```
/// dictionary AuthenticationExtensionsPRFValuesJSON {
///     required Base64URLString first;
///     Base64URLString second;
/// };
/// ```
public struct AuthenticationExtensionsPRFValuesJSON: Sendable, Hashable, Codable {
    /// The first value.
    public var first: Base64URL
    /// The second value, when two were asked for.
    public var second: Base64URL?

    /// Creates PRF values.
    ///
    /// - Parameters:
    ///   - first: the first value.
    ///   - second: the second value, if any.
    public init(first: Base64URL, second: Base64URL? = nil) {
        self.first = first
        self.second = second
    }
}
