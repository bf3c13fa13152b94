/// The JSON start line of `passkey tenant serve --json`: where the tenant listens, its application
/// and its machine-to-machine client (auth0-passkey-api.md §15.1).
struct TenantStartLine: Decodable {
    let url: String
    let domain: String
    let clientID: String
    let connection: String
    let rpID: String
    let m2mClientID: String
    let m2mClientSecret: String
    let managementAudience: String

    enum CodingKeys: String, CodingKey {
        case url, domain, connection
        case clientID = "client_id"
        case rpID = "rp_id"
        case m2mClientID = "m2m_client_id"
        case m2mClientSecret = "m2m_client_secret"
        case managementAudience = "management_audience"
    }
}
