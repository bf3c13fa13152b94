// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension AuthenticationExtensionsPRFOutputsJSON: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("enabled", \.enabled), .member("results", \.results),
        ])

    package static var unread: Self { Self() }
}

/// The client output of the `prf` extension, in JSON form (WebAuthn L3 §10.1.4).
///
/// ```
/// dictionary AuthenticationExtensionsPRFOutputsJSON {
///     boolean enabled;
///     AuthenticationExtensionsPRFValuesJSON results;
/// };
/// ```
public struct AuthenticationExtensionsPRFOutputsJSON: Sendable, Hashable, Codable {
    /// Whether the new credential supports PRF (registration only).
    public var enabled: Bool?
    /// The PRF outputs for the inputs that were evaluated.
    public var results: AuthenticationExtensionsPRFValuesJSON?

    /// Creates a `prf` output.
    ///
    /// - Parameters:
    ///   - enabled: whether the credential supports PRF, if reported.
    ///   - results: the evaluated outputs, if any.
    public init(enabled: Bool? = nil, results: AuthenticationExtensionsPRFValuesJSON? = nil) {
        self.enabled = enabled
        self.results = results
    }
}
