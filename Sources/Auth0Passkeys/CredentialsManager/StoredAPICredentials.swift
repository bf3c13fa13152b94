/// API credentials as a ``CredentialsManager`` keeps them: with the audience and the scope they
/// were asked for, which ``CredentialsManager/storedAPICredentials()`` lists and
/// ``CredentialsManager/clear(forAudience:scope:)`` takes.
///
/// Stored as the ``APICredentials`` JSON with two more members, `audience` and
/// `requested_scope`, so an entry still reads as plain API credentials.
public struct StoredAPICredentials: Sendable, Hashable, Codable {
    /// The API's audience; for an entry of an earlier version, its storage key.
    public var audience: String
    /// The scope they were asked with, or `nil` (``APICredentials/scope`` is what was granted).
    public var scope: String?
    /// The credentials.
    public var credentials: APICredentials

    /// Creates a stored value.
    public init(audience: String, scope: String?, credentials: APICredentials) {
        self.audience = audience
        self.scope = scope
        self.credentials = credentials
    }

    private enum CodingKeys: String, CodingKey {
        case audience
        case scope = "requested_scope"
    }

    public init(from decoder: any Decoder) throws {
        credentials = try APICredentials(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        audience = try container.decodeIfPresent(String.self, forKey: .audience) ?? ""
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
    }

    public func encode(to encoder: any Encoder) throws {
        try credentials.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(audience, forKey: .audience)
        try container.encodeIfPresent(scope, forKey: .scope)
    }
}
