public import Logging

/// Auth0.swift's `Users`: the Management API's user calls, here the same value as
/// ``ManagementAPI/users``.
public typealias Users = ManagementUsers

/// The Management API's user calls with a user's own token, as Auth0.swift's
/// `Auth0.users(token:domain:)`: the token comes from a login that asked for the audience `https://DOMAIN/api/v2/`
/// and the current-user scopes (`read:current_user`, `update:current_user_metadata`,
/// `update:current_user_identities`), and reaches the user's own ID (its `sub`) only.
///
/// ```swift
/// let credentials = try await auth.login(
///     passkey: passkey, challenge: challenge, audience: "https://tenant.auth0.com/api/v2/",
///     scope: "openid profile email read:current_user update:current_user_metadata").start()
/// let user = try await users(token: credentials.accessToken, domain: "tenant.auth0.com")
///     .patch(userID, userMetadata: ["theme": .string("dark")]).start()
/// ```
///
/// - Parameters:
///   - token: an access token for the management audience.
///   - domain: the tenant's domain.
///   - tokenType: the authorization scheme; `Bearer` by default.
///   - transport: what sends each request.
///   - retryPolicy: when to send a safe request again.
///   - clientInfo: the `Auth0-Client` header's content, or `nil` to send none.
///   - logger: where to log requests; nothing is logged by default.
/// - Returns: the user calls.
public func users(
    token: String, domain: String, tokenType: String = "Bearer", transport: any HTTPTransport = CurlTransport(),
    retryPolicy: RetryPolicy = RetryPolicy(), clientInfo: Auth0ClientInfo? = Auth0ClientInfo(),
    logger: Logger? = nil
) -> Users {
    ManagementAPI(
        token: token, domain: domain, tokenType: tokenType, transport: transport, retryPolicy: retryPolicy,
        clientInfo: clientInfo, logger: logger
    ).users
}
