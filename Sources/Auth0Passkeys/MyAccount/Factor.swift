/// A factor the tenant lets the user enroll, as `GET /me/v1/factors` lists it (spec §19.2).
///
/// ```
/// { "type": string, "usage"?: ["primary" | "secondary"] }
/// ```
public struct Factor: Sendable, Hashable, Decodable {
    /// `type`: an authentication method type (spec §5.5), such as `passkey` or `totp`.
    public let type: String
    /// `usage`: `primary`, `secondary`; empty when the tenant does not say.
    @MissingIsEmpty public private(set) var usage: [String]
}

/// `{"factors": [ … ]}`.
struct FactorList: Decodable, Sendable {
    let factors: [Factor]
}
