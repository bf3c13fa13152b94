import Auth0Passkeys
import FoundationEssentials
import WebAuthn

/// An upstream OpenID Connect connection (an Auth0 "enterprise OIDC connection"): the tenant
/// sends a user to the connection's issuer to log in, and takes them back at `/login/callback`
/// (OpenID Connect Core 1.0 §3.1, the authorization code flow with PKCE, RFC 7636).
///
/// Configured with Auth0's key names, in the `connections` list of the tenant's configuration file:
///
/// ```json
/// {"name": "passkey-idp", "strategy": "oidc",
///  "options": {"issuer": "https://idp.example.com/", "client_id": "abc", "client_secret_env": "IDP_SECRET",
///              "scope": "openid profile email", "type": "back_channel"}}
/// ```
///
/// or with `passkey tenant serve --connection passkey-idp=oidc,issuer=…,client_id=…,client_secret_env=VAR`.
/// `discovery_url` is where the issuer's metadata is (OpenID Connect Discovery 1.0 §4), by default
/// `<issuer>.well-known/openid-configuration`; `jwks_uri` overrides the one it names. The secret is
/// `client_secret`, or **[local]** `client_secret_env`, an environment variable read when the
/// tenant opens; it never prints (``Secret``). Only `back_channel` (the code exchanged with client
/// authentication, `client_secret_post` when the issuer takes it, else `client_secret_basic`) is
/// supported. `/authorize?connection=NAME` chooses the connection, for every application.
public struct UpstreamConnection: Sendable, Hashable {
    /// The connection's name, unique in the tenant: letters, digits and `-`, as Auth0's are.
    public var name: String
    /// The issuer: what the upstream ID token's `iss` must equal.
    public var issuer: String
    /// The discovery document's URL, when not under the issuer.
    public var discoveryURL: String?
    /// The JWK Set's URL, when not the one discovery names.
    public var jwksURI: String?
    /// The tenant's client ID at the issuer.
    public var clientID: String
    /// The tenant's client secret at the issuer, when given as is.
    public var clientSecret: Secret?
    /// The environment variable holding the client secret **[local]**.
    public var clientSecretEnv: String?
    /// The scopes asked upstream; `openid` always among them.
    public var scope: String

    /// Creates a connection.
    ///
    /// - Parameters:
    ///   - name: the connection's name.
    ///   - issuer: the issuer URL.
    ///   - clientID: the tenant's client ID at the issuer.
    ///   - clientSecret: its secret, or nil with `clientSecretEnv`.
    ///   - clientSecretEnv: the variable holding the secret, or nil with `clientSecret`.
    ///   - discoveryURL: the discovery document's URL, when not under the issuer.
    ///   - jwksURI: the JWK Set's URL, when not the one discovery names.
    ///   - scope: the scopes asked upstream.
    public init(
        name: String, issuer: String, clientID: String, clientSecret: Secret? = nil, clientSecretEnv: String? = nil,
        discoveryURL: String? = nil, jwksURI: String? = nil, scope: String = "openid profile email"
    ) {
        self.name = name
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientSecretEnv = clientSecretEnv
        self.discoveryURL = discoveryURL
        self.jwksURI = jwksURI
        self.scope = scope
    }

    /// Parses `passkey tenant serve --connection`: `NAME=oidc,KEY=VALUE,…` with the option keys
    /// `issuer`, `client_id`, `client_secret_env`, `scope`, `discovery_url`, `jwks_uri` (no
    /// `client_secret`: a secret on a command line shows in the process list).
    ///
    /// - Parameter text: the option's value.
    /// - Throws: `invalid_configuration` naming the connection and the key at fault.
    public init(option text: String) throws(TenantError) {
        let pairs = text.split(separator: ",").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
        guard let first = pairs.first, first.count == 2 else {
            throw TenantError(.invalidConfiguration, "--connection: NAME=oidc,issuer=URL,client_id=ID,… expected")
        }
        let name = first[0]
        guard first[1] == "oidc" else {
            throw TenantError(.invalidConfiguration, "--connection \(name.prefix(64)): only the oidc strategy exists")
        }
        var options: [String: String] = [:]
        for pair in pairs.dropFirst() {
            guard pair.count == 2, Self.optionKeys.contains(pair[0]), pair[0] != "client_secret" else {
                throw TenantError(
                    .invalidConfiguration,
                    "--connection \(name.prefix(64)): \(pair.first?.prefix(64) ?? "") is not key=value with a known key"
                )
            }
            options[pair[0]] = pair[1]
        }
        try self.init(name: name, options: options, at: "--connection \(name.prefix(64))")
    }

    /// A connection from its name and `options`, checked.
    init(name: String, options: [String: String], at place: String) throws(TenantError) {
        guard let issuer = options["issuer"], let clientID = options["client_id"] else {
            throw TenantError(.invalidConfiguration, "\(place): issuer and client_id are required")
        }
        self.init(
            name: name, issuer: issuer, clientID: clientID, clientSecret: options["client_secret"].map(Secret.init),
            clientSecretEnv: options["client_secret_env"], discoveryURL: options["discovery_url"],
            jwksURI: options["jwks_uri"], scope: options["scope"] ?? "openid profile email")
        try validate(at: place)
    }

    /// The option keys, Auth0's (`client_secret_env` **[local]**; `type` only `back_channel`).
    static let optionKeys: Set<String> = [
        "issuer", "discovery_url", "jwks_uri", "client_id", "client_secret", "client_secret_env", "scope", "type",
    ]

    /// The discovery document's URL: `discovery_url`, else `<issuer>.well-known/openid-configuration`.
    var discoveryDocumentURL: String {
        discoveryURL ?? issuer + (issuer.hasSuffix("/") ? "" : "/") + ".well-known/openid-configuration"
    }

    /// Checks the connection alone: a name of letters, digits and `-` (1 to 128), an `https` (or
    /// loopback `http`) issuer and URLs, a client ID, one way to the secret, `openid` in the scope.
    ///
    /// - Parameter place: where it was given, for the message.
    /// - Throws: `invalid_configuration` naming `place` and what is wrong, never the secret.
    func validate(at place: String) throws(TenantError) {
        guard (1...128).contains(name.utf8.count),
            name.utf8.allSatisfy({
                $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                    || (0x61...0x7A).contains($0)
            })
        else {
            throw TenantError(.invalidConfiguration, "\(place): the name must be 1 to 128 letters, digits and -")
        }
        for (key, url) in [("issuer", issuer), ("discovery_url", discoveryURL), ("jwks_uri", jwksURI)] {
            if let url, case .failure = BaseURL.validated(url) {
                throw TenantError(
                    .invalidConfiguration, "\(place): \(key) must be an https URL, or http on a loopback host")
            }
        }
        guard !clientID.isEmpty else {
            throw TenantError(.invalidConfiguration, "\(place): client_id is empty")
        }
        guard (clientSecret == nil) != (clientSecretEnv == nil) else {
            throw TenantError(.invalidConfiguration, "\(place): give one of client_secret and client_secret_env")
        }
        guard scope.split(separator: " ").contains("openid") else {
            throw TenantError(.invalidConfiguration, "\(place): the scope must contain openid")
        }
    }

    /// The client secret: ``clientSecret``, else the environment's ``clientSecretEnv``.
    ///
    /// - Parameter environment: the process's environment.
    /// - Throws: `invalid_configuration` naming the connection and the variable when it is unset or empty.
    func secret(environment: [String: String]) throws(TenantError) -> Secret {
        if let clientSecret { return clientSecret }
        let variable = clientSecretEnv ?? ""
        guard let value = environment[variable], !value.isEmpty else {
            throw TenantError(
                .invalidConfiguration, "connection \(name): client_secret_env \(variable) is not set in the environment"
            )
        }
        return Secret(value)
    }

    /// Checks a tenant's connections together: each alone, unique names, none named as the
    /// database connection.
    static func validate(_ connections: [UpstreamConnection], databaseConnection: String) throws(TenantError) {
        var seen: Set<String> = [databaseConnection]
        for (index, connection) in connections.enumerated() {
            try connection.validate(at: "connections[\(index)]")
            guard seen.insert(connection.name).inserted else {
                throw TenantError(
                    .invalidConfiguration,
                    "connections[\(index)].name: \(connection.name) is taken by another connection")
            }
        }
    }
}

extension UpstreamConnection: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, strategy, options
    }

    /// Decodes Auth0's connection object: `name`, `strategy` (`oidc`), `options`.
    public init(from decoder: any Decoder) throws {
        try AnyKey.refuseUnknown(in: decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        guard try container.decode(String.self, forKey: .strategy) == "oidc" else {
            throw DecodingError.dataCorruptedError(
                forKey: .strategy, in: container, debugDescription: "only the oidc strategy exists")
        }
        let nested = try container.superDecoder(forKey: .options)
        try AnyKey.refuseUnknown(in: nested, allowed: Array(Self.optionKeys))
        let options = try nested.container(keyedBy: AnyKey.self)
        var values: [String: String] = [:]
        for key in options.allKeys {
            values[key.stringValue] = try options.decode(String.self, forKey: key)
        }
        if let type = values["type"], type != "back_channel" {
            throw DecodingError.dataCorruptedError(
                forKey: AnyKey(stringValue: "type"), in: options, debugDescription: "only back_channel is supported")
        }
        do {
            try self.init(name: name, options: values, at: "connection \(name.prefix(64))")
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.detail))
        }
    }
}
