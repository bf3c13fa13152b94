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

    enum CodingKeys: String, CodingKey {
        case credProps, prf
    }

    /// Decodes the typed members and keeps every other member as a ``JSONValue``.
    ///
    /// - Throws: `DecodingError` when a typed member is malformed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.credProps = try container.decodeIfPresent(CredentialPropertiesOutput.self, forKey: .credProps)
        self.prf = try container.decodeIfPresent(AuthenticationExtensionsPRFOutputsJSON.self, forKey: .prf)
        self.otherExtensions = try decoder.otherMembers(besides: CodingKeys.self)
    }

    /// Encodes the typed members that are present, then ``otherExtensions``.
    ///
    /// - Throws: `EncodingError` only for a non-finite number in ``otherExtensions`` when the
    ///   encoder rejects it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(credProps, forKey: .credProps)
        try container.encodeIfPresent(prf, forKey: .prf)
        try encoder.encodeOtherMembers(otherExtensions, besides: CodingKeys.self)
    }
}
