import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// The database connection's password calls (issue 41), as a client sends them.
extension TenantHarness {
    /// A password that every policy level admits.
    static let strongPassword = "Correct-Horse-9"

    /// `POST /dbconnections/signup` with `fields` besides the client and the connection.
    func passwordSignup(
        _ http: any TestClientProtocol, email: String? = "ada@example.com", password: String? = strongPassword,
        connection: String = "Username-Password-Authentication", fields: [String: JSONValue] = [:]
    ) async throws -> HTTPResult {
        var body = fields
        body["client_id"] = .string(clientID)
        body["connection"] = .string(connection)
        if let email { body["email"] = .string(email) }
        if let password { body["password"] = .string(password) }
        return try await http.send(.post, "/dbconnections/signup", json: body)
    }

    /// The password-realm grant (or, with `realm` nil, the plain password grant).
    func passwordLogin(
        _ http: any TestClientProtocol, username: String = "ada@example.com", password: String = strongPassword,
        realm: String? = "Username-Password-Authentication", captcha: String? = nil,
        scope: String = "openid profile email offline_access"
    ) async throws -> HTTPResult {
        var request = TokenRequest(
            grantType: realm == nil ? TokenRequest.passwordGrant : TokenRequest.passwordRealmGrant, clientID: clientID,
            scope: scope, realm: realm, clientSecret: clientSecret)
        request.username = username
        request.password = Secret(password)
        request.captcha = captcha.map(Secret.init)
        return try await http.send(.post, "/oauth/token", json: request)
    }
}

extension TenantConfiguration {
    /// The defaults with `change` applied to the database connection's options.
    static func passwords(_ change: (inout DatabaseConnectionOptions) -> Void) -> TenantConfiguration {
        var configuration = TenantConfiguration()
        change(&configuration.databaseConnection)
        return configuration
    }
}
