import FoundationEssentials
import WebAuthn

/// An application as the tenant knows it once open: its client ID and, for a confidential client,
/// its secret resolved (given, or generated with the database and kept in it).
///
/// The tenant has three kinds: its default native application (``TenantConfiguration/clientID``,
/// a public client), its built-in machine-to-machine client (the Management API's, which takes
/// its secret in the body or in `Authorization: Basic`), and the configured
/// ``TenantConfiguration/applications``.
public struct RegisteredApplication: Sendable {
    /// The application's name; `Default App` and `Management API (Test Application)` for the built-in ones.
    public let name: String
    /// The application's type.
    public let appType: TenantApplication.AppType
    /// The client ID.
    public let clientID: String
    /// The secret of a confidential client; nil for a public one.
    public let clientSecret: Secret?
    /// The registered `token_endpoint_auth_method`.
    public let tokenEndpointAuthMethod: TenantApplication.TokenEndpointAuthMethod
    /// The grants the client may use.
    let grantTypes: [String]
    /// Allowed Callback URLs.
    let callbacks: [String]
    /// Allowed Logout URLs.
    let logoutURLs: [String]
    /// Allowed Web Origins: the origins that may receive a `web_message` authorization response,
    /// and call the tenant's browser routes (CORS).
    var webOrigins: [AllowedOrigin] = []
    /// Allowed Origins (CORS): the origins that may call the tenant's browser routes.
    var allowedOrigins: [AllowedOrigin] = []
    /// The invoke URL of an app in the embedded mode (``TenantApplication/invokeURL``) **[local]**;
    /// nil for the login page.
    var invokeURL: String?
    /// Whether the client also authenticates with the other secret method than its registered
    /// one: only the built-in machine-to-machine client, whose callers (auth0-python, node-auth0,
    /// go-auth0) differ.
    let acceptsEitherSecretMethod: Bool

    /// The setting names a configured application's generated ID and secret are kept under.
    static func settingKeys(of name: String) -> (clientID: String, secret: String) {
        ("application:\(name):client_id", "application:\(name):client_secret")
    }

    /// Resolves `application`: its ID and secret as given, else the ones stored under its name,
    /// else new ones, stored now.
    static func resolve(
        _ application: TenantApplication, in store: any TenantStore, newClientID: @escaping @Sendable () -> String
    ) async throws(TenantError) -> RegisteredApplication {
        let keys = settingKeys(of: application.name)
        let clientID: String
        if let given = application.clientID {
            clientID = given
        } else {
            clientID = try await store.setting(keys.clientID) { newClientID() }
        }
        var secret: Secret?
        if application.isConfidential {
            if let given = application.clientSecret {
                secret = given
            } else {
                secret = Secret(try await store.setting(keys.secret) { Secret.random(byteCount: 48).text })
            }
        }
        return RegisteredApplication(
            name: application.name, appType: application.appType, clientID: clientID, clientSecret: secret,
            tokenEndpointAuthMethod: application.tokenEndpointAuthMethod, grantTypes: application.grantTypes,
            callbacks: application.callbacks, logoutURLs: application.allowedLogoutURLs,
            webOrigins: application.webOrigins.compactMap(AllowedOrigin.init),
            allowedOrigins: application.allowedOrigins.compactMap(AllowedOrigin.init),
            invokeURL: application.invokeURL, acceptsEitherSecretMethod: false)
    }

    /// Whether the client holds a secret (RFC 6749 §2.1).
    public var isConfidential: Bool { clientSecret != nil }

    /// Whether the client may use `grant`. The `password` grant type (the dashboard's "Password")
    /// lets a client use the password-realm grant too, as Auth0's does.
    func allows(_ grant: String) -> Bool {
        grantTypes.contains(grant)
            || (grant == TokenRequest.passwordRealmGrant && grantTypes.contains(TokenRequest.passwordGrant))
    }

    /// Whether the client authenticates with `method`.
    func accepts(_ method: TenantApplication.TokenEndpointAuthMethod) -> Bool {
        method == tokenEndpointAuthMethod || (acceptsEitherSecretMethod && method != .none && isConfidential)
    }

    /// Whether `uri` is one of the client's Allowed Callback URLs.
    func allowsCallback(_ uri: String) -> Bool {
        callbacks.contains { RegisteredURL($0).admits(uri) }
    }

    /// Whether `origin` (a serialized origin) is one of the client's Allowed Web Origins.
    func allowsWebOrigin(_ origin: String) -> Bool {
        webOrigins.contains { $0.admits(origin) }
    }

    /// Whether `uri` is one of the client's Allowed Logout URLs.
    func allowsLogout(_ uri: String) -> Bool {
        logoutURLs.contains { RegisteredURL($0).admits(uri) }
    }
}
