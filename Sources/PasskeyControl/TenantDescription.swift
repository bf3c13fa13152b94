import Auth0Passkeys
import PasskeyKit

/// Which Auth0 tenant a virtual user belongs to, as a control client names it:
///
/// ```
/// { "clientId": STRING, "baseURL": "http://127.0.0.1:PORT" | "domain": "login.example.com",
///   "audience": STRING?, "scope": STRING?, "connection": STRING?, "organization": STRING? }
/// ```
public struct TenantDescription: Sendable, Hashable, Codable {
    /// The application's client ID.
    public var clientId: String
    /// An explicit base URL (`https://…`, or `http://` to loopback), such as the local tenant's.
    public var baseURL: String?
    /// The tenant's domain, when there is no base URL.
    public var domain: String?
    /// The API the session's access token is for.
    public var audience: String?
    /// The scopes a login asks for; Auth0.swift's default when `nil`.
    public var scope: String?
    /// The database connection.
    public var connection: String?
    /// The organization.
    public var organization: String?

    /// The tenant, reached through `transport`.
    ///
    /// - Throws: ``ControlError`` `invalid argument` without a base URL or domain, or for a base
    ///   URL the client refuses.
    func tenant(transport: any HTTPTransport) throws(ControlError) -> Tenant {
        var tenant: Tenant
        if let baseURL {
            do {
                tenant = try Tenant(clientID: clientId, baseURL: baseURL, domain: domain, transport: transport)
            } catch {
                throw .invalidArgument("tenant.baseURL: \(error.reason)")
            }
        } else if let domain {
            tenant = Tenant(clientID: clientId, domain: domain, transport: transport)
        } else {
            throw .invalidArgument("tenant needs a baseURL or a domain")
        }
        tenant.audience = audience
        tenant.connection = connection
        tenant.organization = organization
        if let scope { tenant.scope = scope }
        return tenant
    }
}
