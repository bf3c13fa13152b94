import FoundationEssentials
import Synchronization

/// A client's DPoP state (RFC 9449; spec §16): its key, made on the first token request, and the
/// last nonce a server sent. What Auth0.swift's `useDPoP()` turns on.
///
/// Give one to ``Authentication/useDPoP(_:)``, and the token requests carry proofs: the
/// webauthn grant, the code exchange and any other grant always (making the key), a refresh
/// once the key exists; a revoke and the passkey challenges never. The tenant then answers
/// `token_type: DPoP`, and the access and refresh tokens are bound to the key. Calls with such
/// a token, `/userinfo` and My Account (``MyAccount/useDPoP(_:)``), send
/// `Authorization: DPoP <token>` with a proof carrying `ath`.
///
/// ```swift
/// let auth = Authentication(clientId: clientID, domain: "login.example.com").useDPoP()
/// let credentials = try await auth.login(passkey: passkey, challenge: challenge).start()
/// // credentials.tokenType == "DPoP"
/// let user = try await auth.userInfo(
///     withAccessToken: credentials.accessToken, tokenType: credentials.tokenType).start()
/// ```
///
/// A ``CredentialsManager`` keeps the key in the session's sealed entry, beside the tokens it
/// binds, so a later process renews and calls APIs with the same key; clearing the session
/// forgets it. When a server answers `use_dpop_nonce` (a 400 from the token endpoint, or a 401
/// with `WWW-Authenticate: DPoP error="use_dpop_nonce"` from a resource server) the request is
/// signed again with the nonce from its `DPoP-Nonce` header and sent once more.
///
/// A reference: copies of a client share it, and every client given the same one signs with the
/// same key. One per session; never one shared by several users.
public final class DPoP: Sendable {
    private let currentKey: Mutex<DPoPKey?>
    let nonces = DPoPNonceStore()

    /// Creates DPoP state.
    ///
    /// - Parameter key: the key to sign with; `nil`, the default, makes one at the first token
    ///   request.
    public init(key: DPoPKey? = nil) {
        currentKey = Mutex(key)
    }

    /// The key, once made or given.
    public var key: DPoPKey? { currentKey.withLock { $0 } }

    /// The key's RFC 7638 thumbprint (`cnf.jkt`), once there is a key.
    public var thumbprint: String? { key?.thumbprint }

    /// The last `DPoP-Nonce` a server sent, which the next proof carries.
    public var nonce: String? { nonces.current }

    /// The key, made now when there is none.
    ///
    /// - Returns: the key.
    public func keyMakingIfNeeded() -> DPoPKey {
        currentKey.withLock { key in
            if let key { return key }
            let made = DPoPKey.generate()
            key = made
            return made
        }
    }

    /// Replaces the key: a stored session's (``CredentialsManager``).
    package func use(_ key: DPoPKey) {
        currentKey.withLock { $0 = key }
    }

    /// Forgets the key and the nonce: the session they belonged to has ended. The next token
    /// request makes a new key.
    public func clear() {
        currentKey.withLock { $0 = nil }
        nonces.clear()
    }

    /// A proof for one request, with the stored nonce, signed with the key (made if need be).
    ///
    /// - Parameters:
    ///   - method: the request's method.
    ///   - url: the request's absolute URL.
    ///   - accessToken: the access token the request carries, for `ath`, or `nil`.
    /// - Returns: the proof, for the `DPoP` header.
    /// - Throws: ``DPoPError``.
    public func proof(method: String, url: String, accessToken: String? = nil) async throws(DPoPError)
        -> DPoPProof
    {
        try await DPoPProof(
            key: keyMakingIfNeeded(), method: method, url: url, accessToken: accessToken, nonce: nonces.current)
    }

    /// Adds `Authorization: <tokenType> <accessToken>` to a request for a resource server, and,
    /// for a `DPoP` token, a `DPoP` proof with `ath` (RFC 9449 §7.1): Auth0.swift's
    /// `DPoP.addHeaders(to:accessToken:tokenType:)`. A `Bearer` token gets no proof.
    ///
    /// - Parameters:
    ///   - request: the request, its method and URL final.
    ///   - accessToken: the access token.
    ///   - tokenType: ``Credentials/tokenType``: `DPoP` or `Bearer`.
    /// - Returns: the request with the headers (an earlier `Authorization` or `DPoP` replaced).
    /// - Throws: ``DPoPError``.
    public func authorize(_ request: HTTPRequest, accessToken: String, tokenType: String) async throws(DPoPError)
        -> HTTPRequest
    {
        var request = request
        request.headers.removeAll { $0.name.lowercased() == "authorization" }
        request.headers.append((name: "Authorization", value: "\(tokenType) \(accessToken)"))
        return try await DPoPSigner(dpop: self, rule: .boundToken).signed(request)
    }
}

/// When a request carries a proof, and from which ``DPoP`` (spec §16.2): what a ``Request``
/// holds, and ``HTTPClient`` applies before each attempt, so that a retried request never resends
/// a proof (whose `jti` the server would refuse as replayed).
package struct DPoPSigner: Sendable {
    /// When to sign.
    package enum Rule: Sendable {
        /// Always, making the key if there is none: a grant other than `refresh_token`.
        case makingKey
        /// Only once the key exists: a refresh.
        case existingKey
        /// Only for an `Authorization: DPoP …` request, when the key exists: a resource server.
        case boundToken
    }

    package let dpop: DPoP
    package let rule: Rule

    package init(dpop: DPoP, rule: Rule) {
        self.dpop = dpop
        self.rule = rule
    }

    /// Whether ``signed(_:)`` gives `request` a proof.
    func signs(_ request: HTTPRequest) -> Bool {
        switch rule {
        case .makingKey: true
        case .existingKey: dpop.key != nil
        case .boundToken: dpop.key != nil && request.header("Authorization")?.lowercased().hasPrefix("dpop ") == true
        }
    }

    /// `request` with a fresh `DPoP` header (new `jti`, `iat` now, the stored nonce, `ath` of
    /// its `Authorization` token), or unchanged when the rule says no proof.
    func signed(_ request: HTTPRequest) async throws(DPoPError) -> HTTPRequest {
        guard signs(request) else { return request }
        let key = dpop.keyMakingIfNeeded()
        // As Auth0.swift: the token is what follows the scheme.
        let accessToken = request.header("Authorization").flatMap { $0.split(separator: " ").last.map(String.init) }
        let proof = try await DPoPProof(
            key: key, method: request.method.rawValue, url: request.url, accessToken: accessToken,
            nonce: dpop.nonces.current)
        var request = request
        request.headers.removeAll { $0.name.lowercased() == "dpop" }
        request.headers.append((name: "DPoP", value: proof.compact))
        return request
    }

    /// ``signed(_:)`` for ``HTTPClient``, whose failures are ``TransportError``s: the request
    /// could not be sent.
    func prepared(_ request: HTTPRequest) async throws(TransportError) -> HTTPRequest {
        do {
            return try await signed(request)
        } catch {
            throw TransportError(.other, "no DPoP proof: \(error.reason)")
        }
    }
}
