import FoundationEssentials
import WebAuthn

/// An application of the tenant besides its default native one, as Auth0 has them: its type, its
/// URLs, how it authenticates at the token endpoint and the grants it may use
/// (Auth0 Management API `clients`; RFC 6749 §2.1, §2.3; OpenID Connect Core 1.0 §9).
///
/// Configured with Auth0's key names, in the `clients` list of the tenant's configuration file or
/// with `passkey tenant serve --app`:
///
/// ```json
/// {"name": "web", "app_type": "regular_web", "callbacks": ["http://127.0.0.1:3000/callback"],
///  "allowed_logout_urls": ["http://127.0.0.1:3000/"], "web_origins": [], "allowed_origins": [],
///  "token_endpoint_auth_method": "client_secret_basic",
///  "grant_types": ["authorization_code", "refresh_token"]}
/// ```
///
/// A `client_id` or `client_secret` not given is generated when the database is created and kept
/// in it under the application's name, so a restart keeps them. What a key does not say takes
/// Auth0's default for the application's type (``AppType``).
public struct TenantApplication: Sendable, Hashable {
    /// An application type (Auth0's `app_type`).
    public enum AppType: String, Sendable, Hashable, Codable, CaseIterable {
        /// A native app: a public client (RFC 6749 §2.1) using PKCE.
        case native
        /// A single-page application: a public client in a browser.
        case spa
        /// A regular web application: a server holding a client secret.
        case regularWeb = "regular_web"
        /// A machine-to-machine application: the client credentials grant only.
        case nonInteractive = "non_interactive"

        /// Auth0's default `token_endpoint_auth_method` for the type.
        public var defaultAuthMethod: TokenEndpointAuthMethod {
            switch self {
            case .native, .spa: .none
            case .regularWeb, .nonInteractive: .clientSecretPost
            }
        }

        /// Auth0's default `grant_types` for the type, less the ones the tenant does not issue
        /// (`implicit`).
        public var defaultGrantTypes: [String] {
            switch self {
            case .native, .spa: [TokenRequest.authorizationCodeGrant, TokenRequest.refreshGrant]
            case .regularWeb:
                [TokenRequest.authorizationCodeGrant, TokenRequest.refreshGrant, TokenRequest.clientCredentialsGrant]
            case .nonInteractive: [TokenRequest.clientCredentialsGrant]
            }
        }
    }

    /// How a client authenticates at the token and revocation endpoints (Auth0's
    /// `token_endpoint_auth_method`; OpenID Connect Core 1.0 §9).
    public enum TokenEndpointAuthMethod: String, Sendable, Hashable, Codable, CaseIterable {
        /// A public client: no secret (RFC 6749 §2.1), PKCE instead.
        case none
        /// The secret in the body as `client_secret` (RFC 6749 §2.3.1).
        case clientSecretPost = "client_secret_post"
        /// The ID and secret in `Authorization: Basic`, each form-urlencoded first (RFC 6749 §2.3.1).
        case clientSecretBasic = "client_secret_basic"
    }

    /// The application's name, unique in the tenant: the key its generated ID and secret are kept under.
    public var name: String
    /// The application's type.
    public var appType: AppType
    /// The client ID; nil to generate one with the database.
    public var clientID: String?
    /// The client secret of a confidential client; nil to generate one with the database.
    /// Never printed but on `tenant serve --json`'s start line.
    public var clientSecret: Secret?
    /// Allowed Callback URLs (`callbacks`), matched as ``TenantConfiguration/callbackURLs`` are.
    public var callbacks: [String]
    /// Allowed Logout URLs (`allowed_logout_urls`).
    public var allowedLogoutURLs: [String]
    /// Allowed Web Origins (`web_origins`): `scheme://host[:port]`, or `https://*.example.com` for
    /// any subdomain. They may receive a `response_mode=web_message` answer, and call the tenant's
    /// browser routes with CORS (Fetch §3.2).
    public var webOrigins: [String]
    /// Allowed Origins (CORS) (`allowed_origins`): origins that may call the tenant's browser
    /// routes with CORS, written as ``webOrigins``.
    public var allowedOrigins: [String]
    /// How the client authenticates at `/oauth/token` and `/oauth/revoke`.
    public var tokenEndpointAuthMethod: TokenEndpointAuthMethod
    /// The grants the client may use (`grant_types`).
    public var grantTypes: [String]
    /// The app's invoke URL (`invoke_url`) **[local]**, after Beyond Identity's "Invoke URL": when
    /// set, `GET /authorize` for this client sends the browser to
    /// `INVOKE_URL?url=<authenticate URL>` instead of the login page, and the app's embedded SDK
    /// logs in with a passkey at that URL (the README's "The local tenant as a passkey provider
    /// (embedded mode)"). An absolute `https` URL, or `http` on a loopback host (RFC 8252 §7.3);
    /// nil for the login page.
    public var invokeURL: String?

    /// Creates an application with Auth0's defaults for its type.
    ///
    /// - Parameters:
    ///   - name: the application's name.
    ///   - appType: its type.
    ///   - clientID: its client ID; nil to generate one.
    ///   - clientSecret: its secret, for a confidential client; nil to generate one.
    ///   - callbacks: its Allowed Callback URLs.
    ///   - tokenEndpointAuthMethod: how it authenticates; by default the type's.
    ///   - invokeURL: its invoke URL, for the embedded mode; nil for the login page.
    public init(
        name: String, appType: AppType, clientID: String? = nil, clientSecret: Secret? = nil, callbacks: [String] = [],
        tokenEndpointAuthMethod: TokenEndpointAuthMethod? = nil, invokeURL: String? = nil
    ) {
        self.name = name
        self.appType = appType
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.callbacks = callbacks
        self.allowedLogoutURLs = []
        self.webOrigins = []
        self.allowedOrigins = []
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod ?? appType.defaultAuthMethod
        self.grantTypes = appType.defaultGrantTypes
        self.invokeURL = invokeURL
    }

    /// Whether the client holds a secret (RFC 6749 §2.1: confidential).
    public var isConfidential: Bool { tokenEndpointAuthMethod != .none }

    /// The grants the tenant issues to some client; `grant_types` names only these.
    static let knownGrants = [
        TokenRequest.authorizationCodeGrant, TokenRequest.refreshGrant, TokenRequest.clientCredentialsGrant,
        TokenRequest.webAuthnGrant, TokenRequest.passwordGrant, TokenRequest.passwordRealmGrant,
    ]

    /// Refuses a list of applications, each as ``validate(at:)`` does, and a name given twice; the
    /// one check of every way in: the configuration file's `clients` and a
    /// ``TenantConfiguration/applications`` built in Swift, when the tenant opens.
    ///
    /// - Parameters:
    ///   - applications: the applications, in order.
    ///   - key: the list's key in error details (`clients`, `applications`).
    /// - Throws: `invalid_configuration` naming `key[index]` of the first one refused.
    static func validate(_ applications: [TenantApplication], at key: String) throws(TenantError) {
        for (index, application) in applications.enumerated() {
            try application.validate(at: "\(key)[\(index)]")
            if applications[..<index].contains(where: { $0.name == application.name }) {
                throw TenantError(
                    .invalidConfiguration, "\(key)[\(index)].name: \(application.name) is given twice")
            }
        }
    }

    /// Refuses an application that contradicts itself.
    ///
    /// - Throws: `invalid_configuration` for an empty name, a public client with a secret or the
    ///   client credentials grant, a confidential native or single-page app, a machine-to-machine
    ///   app with the webauthn grant, an unknown grant, a web origin or allowed origin that is
    ///   not an origin, or an invoke URL that is neither `https` nor `http` on a loopback host.
    func validate(at path: String) throws(TenantError) {
        guard !name.isEmpty else { throw TenantError(.invalidConfiguration, "\(path).name: missing") }
        if let unknown = grantTypes.first(where: { !Self.knownGrants.contains($0) }) {
            throw TenantError(
                .invalidConfiguration, "\(path).grant_types: \(unknown.prefix(100)) is not a grant of the tenant")
        }
        if appType == .native || appType == .spa, isConfidential {
            throw TenantError(
                .invalidConfiguration,
                "\(path).token_endpoint_auth_method: a \(appType.rawValue) app is a public client (none)")
        }
        if appType == .regularWeb || appType == .nonInteractive, !isConfidential {
            throw TenantError(
                .invalidConfiguration,
                "\(path).token_endpoint_auth_method: a \(appType.rawValue) app holds a secret "
                    + "(client_secret_post or client_secret_basic)")
        }
        if !isConfidential, clientSecret != nil {
            throw TenantError(.invalidConfiguration, "\(path).client_secret: a public client has no secret")
        }
        if appType == .nonInteractive, grantTypes.contains(TokenRequest.webAuthnGrant) {
            // Auth0 offers the Passkey grant to apps with a user at a device, never machine-to-machine.
            throw TenantError(
                .invalidConfiguration, "\(path).grant_types: a non_interactive app has no user to use a passkey")
        }
        if !isConfidential, grantTypes.contains(TokenRequest.clientCredentialsGrant) {
            throw TenantError(
                .invalidConfiguration, "\(path).grant_types: a public client may not use client_credentials")
        }
        for origin in webOrigins + allowedOrigins where AllowedOrigin(origin) == nil {
            throw TenantError(
                .invalidConfiguration,
                "\(path): \(origin.prefix(200)) is not an origin (scheme://host[:port], a leading *. allowed)")
        }
        for url in callbacks + allowedLogoutURLs where !url.contains("://") || url.contains("#") {
            throw TenantError(
                .invalidConfiguration, "\(path): \(url.prefix(200)) is not an absolute URL without a fragment")
        }
        if let invokeURL, !Self.isInvokeURL(invokeURL) {
            throw TenantError(
                .invalidConfiguration,
                "\(path).invoke_url: \(invokeURL.prefix(200)) is not an absolute https URL (http only on a "
                    + "loopback host) without a fragment")
        }
    }

    /// Whether `url` may be an invoke URL: absolute, without user information or a fragment,
    /// `https`, or `http` on a loopback host (RFC 8252 §7.3: a native app's loopback listener).
    static func isInvokeURL(_ url: String) -> Bool {
        guard !url.contains("#"), let parts = RegisteredURL.Parts(url) else { return false }
        return parts.scheme == "https" || (parts.scheme == "http" && RegisteredURL.isLoopback(parts.host))
    }
}

extension TenantApplication: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, callbacks
        case appType = "app_type"
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case allowedLogoutURLs = "allowed_logout_urls"
        case webOrigins = "web_origins"
        case allowedOrigins = "allowed_origins"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case grantTypes = "grant_types"
        case invokeURL = "invoke_url"
    }

    /// Reads an application in Auth0's key names; a key it does not know is refused.
    public init(from decoder: any Decoder) throws {
        try AnyKey.refuseUnknown(in: decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            appType: try container.decode(AppType.self, forKey: .appType),
            clientID: try container.decodeIfPresent(String.self, forKey: .clientID),
            clientSecret: try container.decodeIfPresent(Secret.self, forKey: .clientSecret),
            callbacks: try container.decodeIfPresent([String].self, forKey: .callbacks) ?? [],
            tokenEndpointAuthMethod: try container.decodeIfPresent(
                TokenEndpointAuthMethod.self, forKey: .tokenEndpointAuthMethod))
        allowedLogoutURLs = try container.decodeIfPresent([String].self, forKey: .allowedLogoutURLs) ?? []
        webOrigins = try container.decodeIfPresent([String].self, forKey: .webOrigins) ?? []
        allowedOrigins = try container.decodeIfPresent([String].self, forKey: .allowedOrigins) ?? []
        grantTypes = try container.decodeIfPresent([String].self, forKey: .grantTypes) ?? appType.defaultGrantTypes
        invokeURL = try container.decodeIfPresent(String.self, forKey: .invokeURL)
    }

    /// Reads `passkey tenant serve --app`'s value: `key=value` pairs separated by `,`, in Auth0's
    /// key names; a list key (`callbacks`, `grant_types`, …) repeats for each element.
    ///
    /// ```
    /// name=web,app_type=regular_web,callbacks=http://127.0.0.1:3000/cb,token_endpoint_auth_method=client_secret_basic
    /// ```
    ///
    /// - Parameter text: the option's value.
    /// - Throws: `invalid_configuration` naming the first pair that is not `key=value`, or the
    ///   key that is unknown or of a bad value.
    public init(option text: String) throws(TenantError) {
        let lists: Set<CodingKeys> = [.callbacks, .allowedLogoutURLs, .webOrigins, .allowedOrigins, .grantTypes]
        var object: [String: JSONValue] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let key = CodingKeys(rawValue: String(parts[0])) else {
                throw TenantError(.invalidConfiguration, "--app: \(pair.prefix(100)) is not key=value with a known key")
            }
            let value = JSONValue.string(String(parts[1]))
            if lists.contains(key), case .array(let earlier) = object[key.rawValue] {
                object[key.rawValue] = .array(earlier + [value])
            } else {
                object[key.rawValue] = lists.contains(key) ? .array([value]) : value
            }
        }
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(WebAuthnJSON.encode(JSONValue.object(object))))
        } catch let error as DecodingError {
            throw TenantConfiguration.configurationError(error, in: "--app")
        } catch {
            throw TenantError(.invalidConfiguration, "--app: malformed")
        }
        try validate(at: "--app")
    }
}
