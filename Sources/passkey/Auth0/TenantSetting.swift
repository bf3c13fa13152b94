import Foundation

/// One setting of the tenant the Auth0 commands talk to, with its three sources: the flag
/// `--<name>`, the environment variable, and the config file's member `<name>`. A flag wins
/// over the environment, which wins over the file.
enum TenantSetting: String, CaseIterable, Sendable {
    case domain
    case clientID = "client-id"
    case baseURL = "base-url"
    case connection
    case audience
    case scope
    case organization

    /// The environment variable: `AUTH0_DOMAIN`, `AUTH0_CLIENT_ID`, ….
    var environmentVariable: String {
        "AUTH0_" + rawValue.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// What the setting means, for `passkey config` help.
    var meaning: String {
        switch self {
        case .domain: "the tenant's domain, e.g. login.example.com"
        case .clientID: "the application's client ID"
        case .baseURL: "an explicit base URL instead of https://DOMAIN/, e.g. a local tenant's http://127.0.0.1:8080"
        case .connection: "the database connection (realm)"
        case .audience: "the API the access token is for"
        case .scope: "the scopes asked for (default: openid profile email offline_access)"
        case .organization: "the organization ID"
        }
    }
}
