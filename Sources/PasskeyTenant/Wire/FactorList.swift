/// `GET /me/v1/factors`'s answer (auth0-passkey-api.md §19.2): the factors the user may enroll.
///
/// ```
/// { "factors": [ { "type": string, "usage"?: ["primary" | "secondary"] } ] }
/// ```
public struct FactorList: Sendable, Hashable, Codable {
    /// One enabled factor.
    public struct Factor: Sendable, Hashable, Codable {
        /// The authentication method type, as §5.5 names them (`passkey`, `totp`, …).
        public var type: String
        /// Whether it serves as a first (`primary`) or second (`secondary`) factor.
        public var usage: [String]?
    }

    /// The factors, in the tenant's order.
    public var factors: [Factor]
}
