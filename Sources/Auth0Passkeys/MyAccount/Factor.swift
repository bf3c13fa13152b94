/// A factor the tenant lets the user enroll, as `GET /me/v1/factors` lists it (spec §19.2).
///
/// ```
/// { "type": string, "usage"?: ["primary" | "secondary"] }
/// ```
public struct Factor: Sendable, Hashable, Decodable {
    /// `type`: an authentication method type (spec §5.5), such as `passkey` or `totp`.
    public let type: String
    /// `usage`: `primary`, `secondary`; empty when the tenant does not say.
    public let usage: [String]

    private enum CodingKeys: String, CodingKey {
        case type, usage
    }

    /// Decodes a factor; `usage` is optional on the wire.
    ///
    /// - Throws: `DecodingError` when `type` is missing or a member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        usage = try container.decodeIfPresent([String].self, forKey: .usage) ?? []
    }
}

/// `{"factors": [ … ]}`.
struct FactorList: Decodable, Sendable {
    let factors: [Factor]
}
