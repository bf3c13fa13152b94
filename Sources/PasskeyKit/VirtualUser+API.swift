public import Auth0Passkeys

extension VirtualUser {
    /// Calls a protected API with the session's access token, or with `audience`, a token for
    /// that API from the refresh token, as a Bearer token (RFC 6750 §2.1), or for a `DPoP` token
    /// as `Authorization: DPoP` with a proof carrying `ath` (RFC 9449 §7.1), signed again with
    /// the API's nonce when it answers `use_dpop_nonce`. A `GET` is retried on network errors, 429
    /// and 5xx, as the Auth0 clients retry; nothing else is.
    ///
    /// The token goes only to `https://` URLs, or `http://` on a loopback host.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - url: the API's URL.
    ///   - audience: the API's audience, or `nil` for the session's access token.
    ///   - scope: the scopes to ask for with `audience`.
    ///   - body: a JSON body, sent with `Content-Type: application/json`.
    /// - Returns: the API's response, whatever its status.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/user(_:)`` with `refusedURL`,
    ///   ``PasskeyFlowError/session(_:)``, or ``PasskeyFlowError/transport(_:)`` when the API did
    ///   not answer.
    public func callAPI(
        _ method: HTTPRequest.Method, _ url: String, audience: String? = nil, scope: String? = nil,
        body: [UInt8]? = nil
    ) async throws(PasskeyFlowError) -> HTTPResponse {
        if case .failure(let refused) = BaseURL.validated(url) {
            throw .user(VirtualUserError(.refusedURL, refused.reason))
        }
        let token: (type: String, value: String)
        do {
            if let audience {
                let api = try await apiCredentials(audience: audience, scope: scope)
                token = (api.tokenType, api.accessToken)
            } else {
                let credentials = try await credentials(withScope: scope)
                token = (credentials.tokenType, credentials.accessToken)
            }
        } catch {
            throw .session(error)
        }
        var headers = [(name: "Authorization", value: "\(token.type) \(token.value)")]
        if body != nil { headers.append((name: "Content-Type", value: "application/json")) }
        let client = HTTPClient(transport: tenant.transport, clientInfo: nil, logger: tenant.logger)
        do {
            return try await client.perform(
                HTTPRequest(method: method, url: url, headers: headers, body: body), retryable: method == .get,
                dpop: DPoPSigner(dpop: credentialsManager.dpop, rule: .boundToken))
        } catch {
            throw .transport(error)
        }
    }
}
