// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension AuthenticationExtensionsClientInputsJSON: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("credProps", \.credProps), .member("prf", \.prf),
        ], others: \.otherExtensions)

    package static var unread: Self { Self() }
}

/// The client extension inputs of a ceremony's options, in JSON form (WebAuthn L3 §5.1.8, §9).
///
/// ```
/// dictionary AuthenticationExtensionsClientInputsJSON {
///     boolean credProps;                                  // §10.1.3
///     AuthenticationExtensionsPRFInputsJSON prf;          // §10.1.4
///     ...                                                 // any other registered extension
/// };
/// ```
///
/// `credProps` and `prf` are typed; every other member (`largeBlob`, `appid`, an extension not
/// yet registered) is kept in ``otherExtensions`` as it was received, so options pass through a
/// client unchanged and the client can ignore what it does not implement (WebAuthn L3 §9).
public struct AuthenticationExtensionsClientInputsJSON: Sendable, Hashable, Codable {
    /// Asks the client to report whether the new credential is discoverable.
    public var credProps: Bool?
    /// Asks for PRF support or PRF outputs.
    public var prf: AuthenticationExtensionsPRFInputsJSON?
    /// Every other extension input, by extension identifier; never holds `credProps` or `prf`
    /// (those names are encoded from the typed members only).
    public var otherExtensions: [String: JSONValue]

    /// Creates extension inputs; every member defaults to absent.
    ///
    /// - Parameters:
    ///   - credProps: the `credProps` input, if any.
    ///   - prf: the `prf` input, if any.
    ///   - otherExtensions: other inputs by extension identifier.
    public init(
        credProps: Bool? = nil,
        prf: AuthenticationExtensionsPRFInputsJSON? = nil,
        otherExtensions: [String: JSONValue] = [:]
    ) {
        self.credProps = credProps
        self.prf = prf
        self.otherExtensions = otherExtensions
    }
}
