// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension CredentialPropertiesOutput: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("rk", \.rk)
        ])

    package static var unread: Self { Self() }
}

/// The client output of the `credProps` extension (WebAuthn L3 §10.1.3).
///
/// ```
/// dictionary CredentialPropertiesOutput {
///     boolean rk;
/// };
/// ```
public struct CredentialPropertiesOutput: Sendable, Hashable, Codable {
    /// Whether the new credential is discoverable ("resident key"); absent when unknown.
    public var rk: Bool?

    /// Creates a `credProps` output.
    ///
    /// - Parameter rk: whether the credential is discoverable, if known.
    public init(rk: Bool? = nil) {
        self.rk = rk
    }
}
