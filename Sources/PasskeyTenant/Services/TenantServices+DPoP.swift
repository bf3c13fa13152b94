import FoundationEssentials
import HTTPTypes
import Hummingbird
import WebAuthn

extension TenantServices {
    /// Where a DPoP proof is checked, which decides the status of a refusal: 400 with the OAuth
    /// error body at the token endpoint (RFC 9449 §5), 401 with a `DPoP` challenge at a resource
    /// server (§7.1).
    enum DPoPPlace {
        case tokenEndpoint
        /// A resource server, with the access token the proof's `ath` must hash.
        case resource(Secret)

        var status: Int {
            switch self {
            case .tokenEndpoint: 400
            case .resource: 401
            }
        }

        var accessToken: Secret? {
            switch self {
            case .tokenEndpoint: nil
            case .resource(let token): token
            }
        }
    }

    /// The checked DPoP proof of `request` (RFC 9449 §4.3), or nil when it has no `DPoP` header.
    ///
    /// `htu` may name the tenant's public URL, `https://DOMAIN/<path>` (the issuer's origin, what
    /// discovery lists), or the URL the request was sent to (its `Host`, with `https` when the
    /// tenant serves TLS, else `http`; the `:authority` when there is no `Host`): a client
    /// reaching the tenant at a loopback address and port signs the URL it calls.
    /// Both are compared normalised, without query and fragment.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - secure: whether the tenant serves TLS.
    ///   - place: the token endpoint, or a resource server with its access token.
    /// - Returns: the proof, or nil when there is none.
    /// - Throws: `invalid_dpop_proof` for more than one `DPoP` header, a proof that fails a check
    ///   of ``DPoPProof/check(_:method:urls:accessToken:now:)`` or a `jti` its key used in the
    ///   last 5 minutes; `use_dpop_nonce` when ``TenantConfiguration/requiresDPoPNonce`` and the
    ///   proof's `nonce` is missing or not one the tenant (any instance on its database) issued in
    ///   the last 5 minutes (``DPoPNonces``). 400 at the token endpoint, 401 at a resource server.
    func dpopProof(_ request: Request, secure: Bool, at place: DPoPPlace) async throws(TenantError) -> DPoPProof? {
        let values = request.headers[values: .dpop]
        guard let compact = values.first else { return nil }
        guard values.count == 1 else {
            throw TenantError(.invalidDPoPProof, status: place.status, "More than one DPoP header.")
        }
        let path = request.uri.path
        var urls = [configuration.issuer + path.drop(while: { $0 == "/" })]
        if let authority = request.headers[.host] ?? request.head.authority {
            urls.append((secure ? "https://" : "http://") + authority + path)
        }
        let proof: DPoPProof
        do {
            proof = try await DPoPProof.check(
                compact, method: request.method.rawValue, urls: urls.compactMap(DPoPProof.normalisedURL),
                accessToken: place.accessToken, now: clock.now())
        } catch {
            throw TenantError(.invalidDPoPProof, status: place.status, error.reason)
        }
        if configuration.requiresDPoPNonce {
            guard let nonce = proof.claims.nonce, dpopNonces.accepts(nonce) else {
                let server = place.accessToken == nil ? "Authorization server" : "Resource server"
                throw TenantError(.useDPoPNonce, status: place.status, "\(server) requires nonce in DPoP proof")
            }
        }
        // The proofs seen lately, keyed by their key and `jti` (RFC 9449 §11.1): older records go.
        let now = clock.now()
        guard
            try await store.insert(
                SeenProof(expiresAt: now.addingTimeInterval(PasskeyTenant.proofMemory)),
                key: SeenProof.key(thumbprint: proof.key.thumbprint, jti: proof.claims.jti), expiring: now)
        else {
            throw TenantError(.invalidDPoPProof, status: place.status, "The DPoP proof's jti was used before.")
        }
        return proof
    }

    /// The access token a request to a resource server carries, once RFC 9449 §7's rules hold:
    /// what every protected route of the tenant (userinfo, My Account, the sample API) reads.
    ///
    /// - `Authorization: Bearer <token>`: an unbound token as before (RFC 6750 §2.1); a token
    ///   with `cnf.jkt` is refused (§7.2).
    /// - `Authorization: DPoP <token>`: the token must carry `cnf.jkt`, and the request one valid
    ///   proof (``dpopProof(_:secure:at:)``) whose `ath` hashes the token and whose key's
    ///   thumbprint is `cnf.jkt` (§7.1).
    ///
    /// The token's signature, issuer, expiry, audience and scope are the route's to check
    /// (``authorize(_:audiences:scope:)``); a token that is not the tenant's is handed on for it
    /// to refuse. The binding is checked here, where the request arrives: the public functions the
    /// routes call (``PasskeyTenant/userInfo(accessToken:)``, ``PasskeyTenant/events(accessToken:)``, My Account's) take a
    /// token already through this, and check no proof when called in process.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - secure: whether the tenant serves TLS (the proof's `htu`).
    /// - Returns: the token, or nil when there is no `Authorization` header of either scheme.
    /// - Throws: `invalid_token` (401) for a bound token sent as Bearer or an unbound one sent as
    ///   DPoP; `invalid_dpop_proof` (401) for a missing or bad proof or a proof of another key;
    ///   `use_dpop_nonce` (401) as ``dpopProof(_:secure:at:)`` says.
    func accessToken(_ request: Request, secure: Bool) async throws(TenantError) -> Secret? {
        guard let (scheme, token) = Self.authorization(request), !token.text.isEmpty else { return nil }
        let claims = await signer.verify(token.text, as: AccessTokenClaims.self)
        switch scheme {
        case "bearer":
            if claims?.cnf != nil {
                throw TenantError(
                    .invalidToken, status: 401,
                    "The access token is DPoP-bound: send it as Authorization: DPoP, with a DPoP proof.")
            }
            return token
        case "dpop":
            guard let claims else { return token }
            guard let bound = claims.cnf?.jkt else {
                throw TenantError(
                    .invalidToken, status: 401, "The access token is not DPoP-bound: send it as Authorization: Bearer.")
            }
            guard let proof = try await dpopProof(request, secure: secure, at: .resource(token)) else {
                throw TenantError(.invalidDPoPProof, status: 401, "A DPoP-bound access token needs a DPoP proof.")
            }
            guard proof.key.thumbprint == bound else {
                throw TenantError(
                    .invalidDPoPProof, status: 401, "The DPoP proof's key is not the one the access token is bound to.")
            }
            return token
        default:
            return nil
        }
    }

    /// The scheme (lower-cased) and credentials of an `Authorization: <scheme> [<token>]` header
    /// (RFC 9110 §11.6.2: the credentials after the scheme are optional), white space removed from
    /// the token, which is empty for a scheme alone: `Basic` with nothing after it is client
    /// authentication that fails, not no authentication. Bearer and DPoP readers take an empty
    /// token as none.
    static func authorization(_ request: Request) -> (scheme: String, token: Secret)? {
        guard let value = request.headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard let scheme = parts.first else { return nil }
        return (scheme.lowercased(), Secret(String(parts.dropFirst().first?.filter { !$0.isWhitespace } ?? "")))
    }

    /// Binds a grant to the key of its proof (RFC 9449 §5, §10; auth0-passkey-api.md §16.4).
    ///
    /// - Parameters:
    ///   - bound: the thumbprint the refresh token or authorization code is bound to, if any.
    ///   - proof: the thumbprint of the request's proof, if it had one.
    ///   - what: the grant, for the error's words.
    /// - Throws: `invalid_dpop_proof` when the grant is bound and the request has no proof (the
    ///   client may sign one); `invalid_grant` when the proof is of another key (the grant is not
    ///   this client's).
    func checkBinding(_ bound: String?, proof: String?, of what: String) throws(TenantError) {
        guard let bound else { return }
        guard let proof else {
            throw TenantError(
                .invalidDPoPProof, "The \(what) is DPoP-bound: the request needs a DPoP proof of its key.")
        }
        guard proof == bound else {
            throw TenantError.invalidGrant("The \(what) is bound to another DPoP key.")
        }
    }

    /// The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), without DPoP's
    /// checks: for routes that take no DPoP-bound token; the others read ``accessToken(_:secure:)``.
    static func bearer(_ request: Request) -> Secret? {
        guard let (scheme, token) = authorization(request), scheme == "bearer", !token.text.isEmpty else {
            return nil
        }
        return token
    }
}
