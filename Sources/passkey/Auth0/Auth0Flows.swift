import Auth0Passkeys
import Foundation
import Logging
import PasskeyAuthenticator
import WebAuthn

/// The Auth0 passkey flows as the CLI runs them (`signup`, `login`, `enroll`, `methods`,
/// `whoami`, `token`, `api`, `logout`): Auth0's native-login calls through ``Authentication``
/// and ``MyAccount`` over libcurl, passkeys from the software authenticator with a native
/// app's origin, and the session kept by a ``CredentialsManager`` in files.
///
/// `passkey demo` and `passkey bench e2e` run these same functions.
struct Auth0Flows: Sendable {
    let settings: TenantSettings
    let authentication: Authentication
    let manager: CredentialsManager
    let transport: CurlTransport
    let logger: Logger?

    /// The My Account scopes each call needs (auth0-passkey-api.md §5.1).
    static let enrollScope = "create:me:authentication_methods"
    static let readMethodsScope = "read:me:authentication_methods"

    init(settings: TenantSettings, transport: CurlTransport = CurlTransport(), logger: Logger? = nil)
        throws(FlowFailure)
    {
        do {
            authentication = try Authentication(
                clientId: settings.clientID, baseURL: settings.baseURL, transport: transport, logger: logger)
        } catch {
            throw FlowFailure(step: "config", error)
        }
        self.settings = settings
        self.transport = transport
        self.logger = logger
        manager = CredentialsManager(
            authentication: authentication, storage: FileCredentialsStorage(directory: settings.sessionDirectory))
    }

    /// Keeps the credentials of a new login as the only session: API credentials of a previous
    /// user must not survive a change of user.
    func startSession(_ credentials: Credentials) async throws -> UserInfo {
        try await manager.clearAll()
        try await manager.store(credentials: credentials)
        guard let user = await manager.user else {
            throw FlowFailure(
                step: "session", code: "bad_id_token", description: "the tenant's ID token does not decode",
                hint: "run again with -v for the HTTP trace")
        }
        return user
    }

    /// The user of the stored session, from its ID token.
    func storedUser() async throws -> UserInfo {
        guard let user = await manager.user else {
            throw CredentialsManagerError(.noCredentials, "No credentials were found in the store.")
        }
        return user
    }

    /// The tenant's domain: the configured one, else the host of the session's ID-token issuer
    /// (`iss` is `https://DOMAIN/`, OpenID Connect Core §2).
    func domain() async throws -> String {
        if let domain = settings.domain {
            return domain.split(separator: "://").last.map { String($0.prefix { $0 != "/" }) } ?? domain
        }
        let user = try await storedUser()
        guard let issuer = user.customClaims["iss"]?.stringValue, let url = URL(string: issuer), let host = url.host
        else {
            throw FlowFailure(
                step: "session", code: "no_domain", description: "the session's ID token names no issuer",
                hint: "pass --domain")
        }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// API credentials for `audience` from the session's refresh token (spec §6.4, §9).
    ///
    /// The exchange also asks for `profile email`: the ``CredentialsManager`` keeps the ID token it
    /// brings as the session's, which would otherwise lose the user's name and email.
    func apiCredentials(audience: String, scope: String?) async throws -> APICredentials {
        try await manager.apiCredentials(
            forAudience: audience, scope: (["openid profile email"] + [scope].compactMap { $0 }).joined(separator: " "))
    }

    /// A My Account client with a token for `scope`, from the session's refresh token (spec §5.1, §9).
    func myAccount(scope: String) async throws -> MyAccount {
        let audience = "https://\(try await domain())/me/"
        let token = try await apiCredentials(audience: audience, scope: scope)
        return try MyAccount(
            token: token.accessToken, baseURL: settings.baseURL, tokenType: token.tokenType, transport: transport,
            logger: logger)
    }
}
