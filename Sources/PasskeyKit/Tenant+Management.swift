public import Auth0Passkeys

extension Tenant {
    /// The tenant's Management API, with a token a machine-to-machine application gets with its
    /// client secret (`client_credentials`, auth0-passkey-api.md §15.1): what
    /// ``VirtualUser/seed(email:name:rpID:on:using:)`` seeds users through.
    ///
    /// The machine-to-machine application is not the native one users sign in to: it has its own
    /// client ID and secret and a grant for the Management API with the seeding scopes
    /// (`create:users`, `read:users`, `create:authentication_methods`,
    /// `read:authentication_methods`, and `delete:…` to clean up). A local `PasskeyTenant` makes
    /// one (`managementClientID`, `managementClientSecret`; `passkey tenant serve --json` prints
    /// them). The requests go to this tenant's base URL, through its transport and logger.
    ///
    /// ```swift
    /// let management = try await tenant.managementAPI(clientID: m2mClientID, clientSecret: ClientSecret(secret))
    /// let seeded = try await user.seed(email: "ada@example.com", using: management)
    /// try await user.logIn()
    /// ```
    ///
    /// - Parameters:
    ///   - clientID: the machine-to-machine application's client ID.
    ///   - clientSecret: its secret.
    ///   - audience: the Management API's audience; by default `https://DOMAIN/api/v2/` for the
    ///     configured domain, else the issuer of the tenant's discovery document followed by
    ///     `api/v2/` (a local tenant's). With a custom domain, give the canonical tenant domain's.
    /// - Returns: the Management API client, its token valid for `expires_in`.
    /// - Throws: ``PasskeyFlowError/authentication(_:)`` when the token is refused (a wrong
    ///   secret is `access_denied` or `invalid_client`), ``PasskeyFlowError/management(_:)`` for a
    ///   base URL the client refuses, ``PasskeyFlowError/user(_:)`` with `noDomain` when no
    ///   audience can be made.
    public func managementAPI(
        clientID: String, clientSecret: ClientSecret, audience: String? = nil
    ) async throws(PasskeyFlowError) -> ManagementAPI {
        let audience = try await managementAudience(audience)
        let m2m: Authentication
        do {
            m2m = try Authentication(clientId: clientID, baseURL: baseURL, transport: transport, logger: logger)
        } catch {
            throw .authentication(error)
        }
        let token = try await m2m.clientCredentials(clientSecret: clientSecret, audience: audience).start(
            as: PasskeyFlowError.authentication)
        do {
            return try ManagementAPI(
                token: token.accessToken, baseURL: baseURL,
                tokenType: token.tokenType.isEmpty ? "Bearer" : token.tokenType,
                transport: transport, logger: logger)
        } catch {
            throw .management(error)
        }
    }

    /// `given`, else `https://DOMAIN/api/v2/`, else the discovered issuer followed by `api/v2/`.
    func managementAudience(_ given: String?) async throws(PasskeyFlowError) -> String {
        if let given { return given }
        if let domain { return "https://\(domain)/api/v2/" }
        do {
            let issuer = try await idTokenValidator.expectedIssuer()
            return (issuer.hasSuffix("/") ? issuer : issuer + "/") + "api/v2/"
        } catch {
            throw .user(
                VirtualUserError(.noDomain, "no domain is configured and the tenant names no issuer: \(error.reason)"))
        }
    }
}
