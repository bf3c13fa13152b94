import Auth0Passkeys
import FoundationEssentials
import WebAuthn

/// One upstream connection at run time: its issuer's metadata, fetched from the discovery
/// document on first use and kept (OpenID Connect Discovery 1.0 §4), the code exchange at its
/// token endpoint, and the validation of its ID tokens — all through the package's one client
/// (``Auth0Passkeys``): ``HTTPClient`` over ``CurlTransport`` (which runs libcurl off the Swift
/// concurrency pool), ``Authentication/codeExchange(withCode:codeVerifier:redirectURI:clientAuthentication:)``
/// and ``IDTokenValidator`` (which keeps the JWK Set it fetched).
///
/// A failed discovery is not kept: the next login tries again.
actor UpstreamIssuer {
    /// What the discovery document says, made ready to use.
    struct Metadata: Sendable {
        /// `authorization_endpoint`.
        let authorizationEndpoint: String
        /// The client at the token endpoint's base URL (`token_endpoint` minus `oauth/token`).
        let tokenClient: Authentication
        /// How the tenant authenticates there: `client_secret_post` when the issuer lists it (or
        /// lists none), else `client_secret_basic` (OpenID Connect Discovery 1.0 §3).
        let clientAuthentication: ClientAuthentication
        /// The validator of the issuer's ID tokens, over the JWKS of `jwks_uri`.
        let validator: IDTokenValidator
    }

    /// A step of an upstream login that failed: the OAuth error the application gets, and a
    /// description fit for it (no token, no secret).
    struct Failure: Error, Sendable {
        /// `access_denied` or `temporarily_unavailable` (RFC 6749 §4.1.2.1).
        let error: String
        let description: String
    }

    /// A validated upstream login: the ID token's `sub` and its claims (the validated payload read
    /// again as the tenant's own ``UserClaims``, for what ``IDTokenValidator`` does not decode).
    struct Login: Sendable {
        let subject: String
        let claims: UserClaims
    }

    let connection: UpstreamConnection
    private let secret: Secret
    private let client: HTTPClient
    private let transport: CurlTransport
    private let now: @Sendable () -> Date
    private var metadata: Metadata?

    /// An issuer for `connection`.
    ///
    /// - Parameters:
    ///   - connection: the connection.
    ///   - secret: its client secret, resolved.
    ///   - transport: what reaches the issuer (the tenant's CA bundle).
    ///   - now: the tenant's clock, for the ID token's `exp`.
    init(connection: UpstreamConnection, secret: Secret, transport: CurlTransport, now: @escaping @Sendable () -> Date)
    {
        self.connection = connection
        self.secret = secret
        self.transport = transport
        self.client = HTTPClient(transport: transport, clientInfo: nil)
        self.now = now
    }

    /// The issuers of a tenant's connections by name, checked and with their secrets read.
    ///
    /// - Parameters:
    ///   - connections: the configured connections.
    ///   - databaseConnection: the tenant's database connection, a name they may not take.
    ///   - caBundlePath: the CA bundle to trust, or nil for the environment's.
    ///   - now: the tenant's clock.
    /// - Throws: `invalid_configuration` naming the connection at fault (never its secret).
    static func open(
        _ connections: [UpstreamConnection], databaseConnection: String, caBundlePath: String?,
        now: @escaping @Sendable () -> Date
    ) throws(TenantError) -> [String: UpstreamIssuer] {
        try UpstreamConnection.validate(connections, databaseConnection: databaseConnection)
        guard !connections.isEmpty else { return [:] }
        // An ID token or a discovery document is small: a larger answer is refused, not read.
        let transport = CurlTransport(
            configuration: .init(timeout: .seconds(10), caBundlePath: caBundlePath, maxResponseSize: 256 << 10))
        let environment = ProcessInfo.processInfo.environment
        var issuers: [String: UpstreamIssuer] = [:]
        for connection in connections {
            issuers[connection.name] = UpstreamIssuer(
                connection: connection, secret: try connection.secret(environment: environment), transport: transport,
                now: now)
        }
        return issuers
    }

    /// The issuer's metadata: the kept one, else discovered now.
    ///
    /// - Throws: ``Failure`` `temporarily_unavailable` when the document cannot be had or names
    ///   unusable endpoints.
    func discovered() async throws(Failure) -> Metadata {
        if let metadata { return metadata }
        let url = connection.discoveryDocumentURL
        let response: HTTPResponse
        do {
            response = try await client.perform(
                HTTPRequest(method: .get, url: url, headers: [(name: "Accept", value: "application/json")]),
                retryable: false)
        } catch {
            throw unavailable("its discovery document could not be fetched (\(error.code))")
        }
        guard response.status == 200,
            let document = try? JSONDecoder().decode(Document.self, from: Data(response.body))
        else {
            throw unavailable("its discovery document is not one (HTTP \(response.status))")
        }
        let jwks = connection.jwksURI ?? document.jwksURI
        guard case .success = BaseURL.validated(document.authorizationEndpoint),
            case .success = BaseURL.validated(jwks),
            document.tokenEndpoint.hasSuffix("/oauth/token"),
            let tokenClient = try? Authentication(
                clientId: connection.clientID, baseURL: String(document.tokenEndpoint.dropLast("oauth/token".count)),
                transport: transport, clientInfo: nil)
        else {
            throw unavailable(
                "its discovery document names endpoints the tenant cannot use "
                    + "(https or loopback http; a token_endpoint ending in /oauth/token)")
        }
        let methods = document.tokenEndpointAuthMethodsSupported ?? ["client_secret_post"]
        let secret = ClientSecret(self.secret.text)
        let discovered = Metadata(
            authorizationEndpoint: document.authorizationEndpoint, tokenClient: tokenClient,
            clientAuthentication: methods.contains("client_secret_post")
                ? .clientSecretPost(secret) : .clientSecretBasic(secret),
            validator: IDTokenValidator(
                clientId: connection.clientID, issuer: connection.issuer, jwksURL: jwks, transport: transport,
                leeway: 60, now: now))
        metadata = discovered
        return discovered
    }

    /// Exchanges the upstream's code (RFC 6749 §4.1.3, RFC 7636 §4.5) and validates its ID token
    /// (OpenID Connect Core 1.0 §3.1.3.7: signature through the JWKS, `iss`, `aud`, `exp` and
    /// `iat` with 60 s of leeway, `nonce`).
    ///
    /// Not isolated to the actor: logins through one connection run side by side; only the
    /// discovery is the actor's.
    ///
    /// - Returns: the ID token's subject and the profile its claims give.
    /// - Throws: ``Failure``: `access_denied` when the exchange is refused or the token does not
    ///   validate, `temporarily_unavailable` when the issuer cannot be reached.
    nonisolated func login(code: String, request: UpstreamRequest) async throws(Failure) -> Login {
        let metadata = try await discovered()
        let credentials: Credentials
        do {
            credentials = try await metadata.tokenClient.codeExchange(
                withCode: code, codeVerifier: request.codeVerifier, redirectURI: request.redirectURI,
                clientAuthentication: metadata.clientAuthentication
            ).start()
        } catch {
            if error.statusCode == 0 {
                throw unavailable("its token endpoint could not be reached")
            }
            throw Failure(
                error: "access_denied",
                description:
                    "The connection \(connection.name) refused the code exchange: \(error.code.rawValue.prefix(64))")
        }
        let subject: String
        do {
            let claims = try await metadata.validator.validate(credentials.idToken, nonce: request.nonce)
            subject = claims.subject ?? ""
        } catch {
            throw Failure(
                error: "access_denied",
                description: "The connection \(connection.name)'s ID token is refused: \(error.reason)")
        }
        guard let payload = UnverifiedJWT(credentials.idToken)?.payload,
            let claims = try? JSONDecoder().decode(UserClaims.self, from: Data(payload))
        else {
            throw Failure(
                error: "access_denied",
                description: "The connection \(connection.name)'s ID token has malformed claims.")
        }
        return Login(subject: subject, claims: claims)
    }

    private nonisolated func unavailable(_ what: String) -> Failure {
        Failure(
            error: "temporarily_unavailable", description: "The connection \(connection.name) is unavailable: \(what).")
    }

    /// The discovery document's members the tenant uses.
    private struct Document: Decodable {
        let authorizationEndpoint: String
        let tokenEndpoint: String
        let jwksURI: String
        let tokenEndpointAuthMethodsSupported: [String]?

        enum CodingKeys: String, CodingKey {
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case jwksURI = "jwks_uri"
            case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        }
    }
}

extension UserClaims {
    /// The profile an upstream ID token's claims give (OpenID Connect Core 1.0 §5.1); a value
    /// over 512 bytes is left out.
    var upstreamProfile: UserProfile {
        func kept(_ value: String?) -> String? { value.flatMap { $0.utf8.count <= 512 ? $0 : nil } }
        return UserProfile(
            email: kept(email), name: kept(name), givenName: kept(givenName), familyName: kept(familyName),
            nickname: kept(nickname), picture: kept(picture))
    }
}
