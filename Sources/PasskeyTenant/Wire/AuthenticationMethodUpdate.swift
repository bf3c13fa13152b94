/// `PATCH /me/v1/authentication-methods/{id}`'s body (auth0-passkey-api.md §19.1).
///
/// ```
/// { "name"?: string, "preferred_authentication_method"?: "sms" | "voice" }
/// ```
///
/// Nothing else: Auth0's schema has `additionalProperties: false`, so an unknown member fails to
/// decode and the caller answers 400.
public struct AuthenticationMethodUpdate: Sendable, Hashable, Codable {
    /// The method's new name.
    public var name: String?
    /// The phone channel to prefer; phone methods only.
    public var preferredAuthenticationMethod: String?

    /// Creates an update.
    public init(name: String? = nil, preferredAuthenticationMethod: String? = nil) {
        self.name = name
        self.preferredAuthenticationMethod = preferredAuthenticationMethod
    }

    enum CodingKeys: String, CodingKey {
        case name
        case preferredAuthenticationMethod = "preferred_authentication_method"
    }

    /// Decodes an update, refusing members the schema does not define.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the first unknown member.
    public init(from decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = all.allKeys.first(where: { CodingKeys(stringValue: $0.stringValue) == nil }) {
            let context = DecodingError.Context(
                codingPath: all.codingPath + [unknown], debugDescription: "not an authentication method property")
            throw DecodingError.dataCorrupted(context)
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        preferredAuthenticationMethod = try container.decodeIfPresent(
            String.self, forKey: .preferredAuthenticationMethod)
    }
}
