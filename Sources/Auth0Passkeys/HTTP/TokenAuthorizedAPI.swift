/// An Auth0 API called with an access token, sent as `Authorization: <tokenType> <token>` on every
/// call: My Account (`<tenant>/me/v1`) and the Management API (`<tenant>/api/v2`).
///
/// The one place their ``APIEndpoint`` is built, from a tenant domain (as Auth0's SDKs build the
/// URL, ``BaseURL``) or from an explicit base URL checked once (`https://`, or `http://` to a
/// loopback host only); each conformer only stores what it is given.
package protocol TokenAuthorizedAPI: Sendable {
    /// The error every call of the API throws.
    associatedtype Failure: Auth0APIError

    /// The API's path under the tenant's base URL, without a final `/`: `me/v1`, `api/v2`.
    static var path: String { get }

    /// A client that keeps `token`, `tokenType` and `endpoint` as they are.
    init(token: String, tokenType: String, endpoint: APIEndpoint)
}

extension TokenAuthorizedAPI {
    /// Creates a client for a tenant domain: `https://` is put in front unless the domain already
    /// begins with `https`.
    package init(token: String, tokenType: String, domain: String, client: HTTPClient) {
        self.init(token: token, tokenType: tokenType, tenantURL: BaseURL.fromDomain(domain), client: client)
    }

    /// Creates a client over a prepared ``HTTPClient`` (its retry waits and jitter injected) for an
    /// explicit base URL: the seam of the tests, and what the public `init(token:baseURL:…)` calls.
    ///
    /// - Throws: `Failure` with ``AuthenticationError/Code/invalidConfiguration`` for a URL that
    ///   is neither `https://…` nor `http://` to a loopback host.
    package init(token: String, tokenType: String = "Bearer", baseURL: String, client: HTTPClient) throws(Failure) {
        let url = try Failure.validated(baseURL: baseURL)
        self.init(token: token, tokenType: tokenType, tenantURL: url, client: client)
    }

    private init(token: String, tokenType: String, tenantURL: String, client: HTTPClient) {
        self.init(
            token: token, tokenType: tokenType,
            endpoint: APIEndpoint(url: tenantURL + Self.path, authorization: "\(tokenType) \(token)", client: client))
    }
}
