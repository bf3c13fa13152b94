import FoundationEssentials
import WebAuthn

/// The tenant's applications, and client authentication at `/oauth/token` and `/oauth/revoke`
/// (RFC 6749 §2.3, §3.2.1; OpenID Connect Core 1.0 §9).
extension TenantServices {
    /// The default native application: a public client of the webauthn, authorization code,
    /// refresh and (while the connection takes passwords) password grants, with the
    /// configuration's callback and logout URLs.
    var defaultApplication: RegisteredApplication {
        RegisteredApplication(
            name: "Default App", appType: .native, clientID: clientID, clientSecret: nil,
            tokenEndpointAuthMethod: .none,
            grantTypes: [TokenRequest.webAuthnGrant, TokenRequest.authorizationCodeGrant, TokenRequest.refreshGrant]
                + (configuration.databaseConnection.passwordsEnabled ? [TokenRequest.passwordGrant] : []),
            callbacks: configuration.callbackURLs, logoutURLs: configuration.logoutURLs,
            acceptsEitherSecretMethod: false)
    }

    /// The built-in machine-to-machine client of the Management API (auth0-passkey-api.md §15.1):
    /// the client credentials grant, its secret in the body or in `Authorization: Basic`.
    var managementApplication: RegisteredApplication {
        RegisteredApplication(
            name: "Management API (Test Application)", appType: .nonInteractive, clientID: managementClientID,
            clientSecret: managementClientSecret, tokenEndpointAuthMethod: .clientSecretPost,
            grantTypes: [TokenRequest.clientCredentialsGrant], callbacks: [], logoutURLs: [],
            acceptsEitherSecretMethod: true)
    }

    /// The application whose client ID is `clientID`, if any: the default native one, the
    /// machine-to-machine one, then the configured ones (the first that has it), built only when it
    /// is the one asked for, since every token request asks.
    func application(_ clientID: String) -> RegisteredApplication? {
        if clientID == self.clientID { return defaultApplication }
        if clientID == managementClientID { return managementApplication }
        return applications.first { $0.clientID == clientID }
    }

    /// Authenticates the client of a token or revocation request, before its grant is looked at.
    ///
    /// The checks, in order: the credentials are read (``ClientCredentials``); the client must
    /// exist; `grant`, when the tenant knows it, must be one of the client's (`unauthorized_client`,
    /// 403, in Auth0's words); a confidential client must present its registered method and its
    /// secret, compared in constant time as digests (so the length leaks nothing either); a
    /// public client must present no secret. A public client therefore never gets a grant that
    /// only a confidential client has.
    ///
    /// - Parameters:
    ///   - credentials: what the request presented.
    ///   - grant: the grant asked for; nil for revocation.
    /// - Returns: the authenticated application.
    /// - Throws: `invalid_client` (401) for an unknown client, a missing or wrong secret, a secret
    ///   from a public client, or another method than the registered one; the error middleware
    ///   adds `WWW-Authenticate: Basic` when the request used Basic (RFC 6749 §5.2).
    func authenticateClient(_ credentials: ClientCredentials, grant: String?) throws(TenantError)
        -> RegisteredApplication
    {
        guard let client = application(credentials.clientID) else {
            throw TenantError(.invalidClient, status: 401, "Unknown client: \(credentials.clientID.prefix(64))")
        }
        if let grant, TenantApplication.knownGrants.contains(grant), !client.allows(grant) {
            throw TenantError(
                .unauthorizedClient, status: 403, "Grant type '\(grant.prefix(100))' not allowed for the client.")
        }
        guard let secret = client.clientSecret else {
            guard credentials.method == .none else {
                throw TenantError(
                    .invalidClient, status: 401,
                    "The client is a public client (token_endpoint_auth_method none): it presents no secret.")
            }
            return client
        }
        guard credentials.method != .none else {
            throw TenantError(.invalidClient, status: 401, "The client secret is missing.")
        }
        guard client.accepts(credentials.method) else {
            throw TenantError(
                .invalidClient, status: 401,
                "The client authenticates with \(client.tokenEndpointAuthMethod.rawValue), "
                    + "not \(credentials.method.rawValue).")
        }
        guard let presented = credentials.secret, constantTimeEquals(presented.digest, secret.digest) else {
            throw TenantError(.invalidClient, status: 401, "The client secret is missing or wrong.")
        }
        return client
    }
}
