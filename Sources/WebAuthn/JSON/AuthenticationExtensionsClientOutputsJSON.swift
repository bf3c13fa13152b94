// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension AuthenticationExtensionsClientOutputsJSON: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("credProps", \.credProps), .member("prf", \.prf),
        ], others: \.otherExtensions)

    package static var unread: Self { Self() }
}

/// The client extension outputs of a ceremony's response, in JSON form (WebAuthn L3 §5.1, §9).
///
/// ```
/// dictionary AuthenticationExtensionsClientOutputsJSON {
///     CredentialPropertiesOutput credProps;               // §10.1.3
///     AuthenticationExtensionsPRFOutputsJSON prf;         // §10.1.4
///     ...                                                 // any other registered extension
/// };
/// ```
///
/// `credProps` and `prf` are typed; every other member (`largeBlob`, `appid`, ...) is kept in
/// ``otherExtensions`` as it was received, so a response re-encodes unchanged.
public struct AuthenticationExtensionsClientOutputsJSON: Sendable, Hashable, Codable {
    /// Properties of the new credential.
    public var credProps: CredentialPropertiesOutput?
    /// PRF support or PRF outputs.
    public var prf: AuthenticationExtensionsPRFOutputsJSON?
    /// Every other extension output, by extension identifier; never holds `credProps` or `prf`
    /// (those names are encoded from the typed members only).
    public var otherExtensions: [String: JSONValue]

    /// Creates extension outputs; every member defaults to absent, which encodes as `{}`.
    ///
    /// - Parameters:
    ///   - credProps: the `credProps` output, if any.
    ///   - prf: the `prf` output, if any.
    ///   - otherExtensions: other outputs by extension identifier.
    public init(
        credProps: CredentialPropertiesOutput? = nil,
        prf: AuthenticationExtensionsPRFOutputsJSON? = nil,
        otherExtensions: [String: JSONValue] = [:]
    ) {
        self.credProps = credProps
        self.prf = prf
        self.otherExtensions = otherExtensions
    }
}
