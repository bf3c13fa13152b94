public import FoundationEssentials
import JWTKit

/// Validates an ID token as Auth0's SDK does before it trusts one (spec §6.5, §14.5): the `RS256`
/// signature against the tenant's JWKS, then the claims, first failure wins.
///
/// The checks, in order: the header names `RS256` and a `kid` found in the JWKS (fetched once and
/// kept; fetched again once when the `kid` is unknown, for key rotation); the signature
/// (RFC 7515 §5.2, RSASSA-PKCS1-v1_5 with SHA-256); `iss` is the tenant's issuer; `sub` is not
/// empty; `aud` contains the client ID; `exp` + leeway is after now; `iat` is present; `nonce`
/// equals the one sent, when one was; `azp` is the client ID when `aud` has several entries;
/// `auth_time` + max age + leeway is not before now, when a max age was sent; `org_id` equals an
/// organization that starts with `org_`, else `org_name` equals the organization lower-cased,
/// when one was asked: to the call, or to the validator (``checking(organization:)``), so that a
/// ``CredentialsManager`` holding it checks every stored and renewed token for the organization its
/// logins asked.
///
/// ```swift
/// let validator = IDTokenValidator(clientId: clientID, domain: "login.example.com")
/// let claims = try await validator.validate(credentials.idToken, nonce: nonce)
/// print(claims.subject ?? "")
/// ```
///
/// A validator keeps the JWKS it fetched: reuse one per tenant.
public struct IDTokenValidator: Sendable {
    /// The client ID `aud` must contain.
    public let clientId: String
    /// The slack granted to `exp` and `auth_time`, in seconds (spec §14.5: 60 s).
    public let leeway: Int
    /// The organization checked when a call names none: an `org_` ID or a name (spec §14.5, §17).
    public private(set) var organization: String?

    /// Where the issuer `iss` must equal comes from.
    private enum Issuer: Sendable {
        case fixed(String)
        case discovered(DiscoveredIssuer)
    }

    private let issuer: Issuer
    private let keySet: JSONWebKeySetCache
    private let now: @Sendable () -> Date

    /// Creates a validator for a tenant's domain: issuer `https://DOMAIN/`, JWKS at
    /// `https://DOMAIN/.well-known/jwks.json` (spec §6.5).
    ///
    /// - Parameters:
    ///   - clientId: the application's client ID.
    ///   - domain: the tenant's domain, such as `login.example.com`.
    ///   - transport: what fetches the JWKS, with the `Auth0-Client` header of every client
    ///     request (spec §8); ``CurlTransport`` by default.
    ///   - leeway: the slack on `exp` and `auth_time`, in seconds.
    ///   - now: the clock.
    public init(
        clientId: String, domain: String, transport: any HTTPTransport = CurlTransport(), leeway: Int = 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            clientId: clientId, issuer: "https://\(domain)/", jwksURL: "https://\(domain)/.well-known/jwks.json",
            transport: transport, leeway: leeway, now: now)
    }

    /// Creates a validator with the issuer and the JWKS URL given apart, for a tenant whose issuer
    /// is not the URL it is reached at (a local tenant on a loopback port).
    ///
    /// - Parameters:
    ///   - clientId: the application's client ID.
    ///   - issuer: the value `iss` must equal.
    ///   - jwksURL: the absolute URL of the tenant's JWKS.
    ///   - transport: what fetches the JWKS, with the `Auth0-Client` header of every client
    ///     request (spec §8); ``CurlTransport`` by default.
    ///   - leeway: the slack on `exp` and `auth_time`, in seconds.
    ///   - now: the clock.
    public init(
        clientId: String, issuer: String, jwksURL: String, transport: any HTTPTransport = CurlTransport(),
        leeway: Int = 60, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        let keySet = JSONWebKeySetCache(endpoint: APIEndpoint(url: jwksURL, client: HTTPClient(transport: transport)))
        self.init(clientId: clientId, issuer: .fixed(issuer), keySet: keySet, leeway: leeway, now: now)
    }

    /// Creates a validator for the tenant an ``Authentication`` client talks to, over its
    /// transport: the JWKS at its base URL's `.well-known/jwks.json`; the issuer `issuer` when
    /// given, else the `issuer` of its discovery document (`.well-known/openid-configuration`,
    /// fetched once), which is `https://DOMAIN/` for an Auth0 tenant and the configured domain's
    /// for a local one.
    ///
    /// - Parameters:
    ///   - authentication: the client whose tenant issues the tokens.
    ///   - issuer: the value `iss` must equal, when known.
    ///   - leeway: the slack on `exp` and `auth_time`, in seconds.
    ///   - now: the clock.
    public init(
        authentication: Authentication, issuer: String? = nil, leeway: Int = 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        let client = authentication.endpoint.client
        let discovery = APIEndpoint(url: authentication.url + ".well-known/openid-configuration", client: client)
        self.init(
            clientId: authentication.clientId,
            issuer: issuer.map(Issuer.fixed) ?? .discovered(DiscoveredIssuer(endpoint: discovery)),
            keySet: JSONWebKeySetCache(
                endpoint: APIEndpoint(url: authentication.url + ".well-known/jwks.json", client: client)),
            leeway: leeway, now: now)
    }

    private init(
        clientId: String, issuer: Issuer, keySet: JSONWebKeySetCache, leeway: Int,
        now: @escaping @Sendable () -> Date
    ) {
        self.clientId = clientId
        self.issuer = issuer
        self.keySet = keySet
        self.leeway = leeway
        self.now = now
    }

    /// This validator, checking `organization` whenever a call names none: the organization a
    /// passkey login or signup asked (spec §17), whose tokens, and their renewals, must carry its
    /// `org_id` (or `org_name`). It shares this one's fetched keys.
    ///
    /// - Parameter organization: an `org_` ID or a name; nil to check none.
    /// - Returns: a copy.
    public func checking(organization: String?) -> IDTokenValidator {
        var copy = self
        copy.organization = organization
        return copy
    }

    /// The issuer `iss` must equal: the one given, else the tenant's discovery document's.
    ///
    /// - Throws: ``IDTokenValidationError/Code/discoveryUnavailable`` when it is to be discovered
    ///   and cannot be.
    public func expectedIssuer() async throws(IDTokenValidationError) -> String {
        switch issuer {
        case .fixed(let value): value
        case .discovered(let document): try await document.value()
        }
    }

    /// Validates `idToken`: signature, then claims (spec §14.5).
    ///
    /// - Parameters:
    ///   - idToken: the compact JWS.
    ///   - nonce: the nonce sent in the authorization request, if any.
    ///   - maxAge: the `max_age` sent, in seconds, if any.
    ///   - organization: the organization asked (an `org_` ID or a name), if any; by default
    ///     ``organization``.
    /// - Returns: the token's claims.
    /// - Throws: ``IDTokenValidationError`` for the first check that failed.
    @discardableResult
    public func validate(
        _ idToken: String, nonce: String? = nil, maxAge: Int? = nil, organization: String? = nil
    ) async throws(IDTokenValidationError) -> IDTokenClaims {
        let claims = try await verifySignature(idToken)
        try check(
            claims, issuer: try await expectedIssuer(), nonce: nonce, maxAge: maxAge,
            organization: organization ?? self.organization)
        return claims
    }

    /// The header's algorithm and key, then the signature; the claims as the token carries them.
    private func verifySignature(_ idToken: String) async throws(IDTokenValidationError) -> IDTokenClaims {
        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse([UInt8](idToken.utf8), as: JSONWebKeySetCache.SignedIDToken.self)
                .header
        } catch {
            throw IDTokenValidationError(.malformed, "The ID token is not a JWS with JSON claims.")
        }
        guard header.alg == "RS256" else {
            throw IDTokenValidationError(.invalidSignature, "The ID token is not signed with RS256.")
        }
        guard let kid = header.kid else {
            throw IDTokenValidationError(.unknownKey, "The ID token's header has no kid.")
        }
        let keys = try await keySet.keys(containing: kid)
        do {
            return try await keys.verify(idToken, as: JSONWebKeySetCache.SignedIDToken.self).claims
        } catch {
            throw IDTokenValidationError(.invalidSignature, "The ID token's signature does not verify.")
        }
    }

    /// The claim checks of spec §14.5, in order.
    private func check(
        _ claims: IDTokenClaims, issuer: String, nonce: String?, maxAge: Int?, organization: String?
    ) throws(IDTokenValidationError) {
        let now = now()
        let leeway = TimeInterval(leeway)
        guard claims.issuer == issuer else {
            throw IDTokenValidationError(.wrongIssuer, "The ID token's iss is not the tenant's issuer.")
        }
        guard let subject = claims.subject, !subject.isEmpty else {
            throw IDTokenValidationError(.missingSubject, "The ID token has no sub.")
        }
        guard claims.audience.contains(clientId) else {
            throw IDTokenValidationError(.wrongAudience, "The ID token's aud does not contain the client ID.")
        }
        guard let expiresAt = claims.expiresAt, expiresAt.addingTimeInterval(leeway) > now else {
            throw IDTokenValidationError(.expired, "The ID token's exp has passed.")
        }
        guard claims.issuedAt != nil else {
            throw IDTokenValidationError(.missingIssuedAt, "The ID token has no iat.")
        }
        if let nonce, claims.nonce != nonce {
            throw IDTokenValidationError(.wrongNonce, "The ID token's nonce is not the one sent.")
        }
        if claims.audience.count > 1, claims.authorizedParty != clientId {
            throw IDTokenValidationError(.wrongAuthorizedParty, "The ID token's azp is not the client ID.")
        }
        if let maxAge {
            guard let authTime = claims.authTime else {
                throw IDTokenValidationError(.missingAuthTime, "The ID token has no auth_time, and max_age was sent.")
            }
            guard authTime.addingTimeInterval(TimeInterval(maxAge) + leeway) >= now else {
                throw IDTokenValidationError(.authTimeTooOld, "The ID token's auth_time is older than max_age.")
            }
        }
        if let organization {
            let matches =
                organization.hasPrefix("org_")
                ? claims.organizationID == organization : claims.organizationName == organization.lowercased()
            guard matches else {
                throw IDTokenValidationError(.wrongOrganization, "The ID token is not for the organization asked.")
            }
        }
    }
}
