public import WebAuthn

/// The one error type of `PasskeyTenant`: what a request did wrong, as the tenant answers it.
///
/// The Authentication API renders it as `{"error", "error_description"}` and My Account as
/// `{"type", "status", "title", "detail"}` (auth0-passkey-api.md §7.1, §7.2); both carry the
/// same ``code`` and HTTP ``status``. Every bad input is one of these, a 4xx: nothing a client sends
/// makes the tenant answer 5xx.
///
/// Two errors are equal when their codes are equal; the detail is for people.
public struct TenantError: CodedError, Hashable {
    /// What went wrong, as the wire's `error` (or My Account's `type`).
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The body or a parameter is missing, malformed or not allowed (RFC 6749 §5.2).
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// The `auth_session`, the passkey response or the refresh token does not hold (RFC 6749 §5.2).
        public static let invalidGrant = Code(rawValue: "invalid_grant")
        /// The client ID is unknown (RFC 6749 §5.2).
        public static let invalidClient = Code(rawValue: "invalid_client")
        /// The grant type is not one the tenant knows (RFC 6749 §5.2).
        public static let unsupportedGrantType = Code(rawValue: "unsupported_grant_type")
        /// The audience or scope asked for is not granted.
        public static let accessDenied = Code(rawValue: "access_denied")
        /// Too many failures for one user or address (Auth0 brute-force protection).
        public static let tooManyAttempts = Code(rawValue: "too_many_attempts")
        /// The bearer token is missing, malformed, expired or for another audience (RFC 6750 §3.1).
        public static let invalidToken = Code(rawValue: "invalid_token")
        /// The bearer token lacks a scope the call needs (RFC 6750 §3.1).
        public static let insufficientScope = Code(rawValue: "insufficient_scope")
        /// No such resource.
        public static let notFound = Code(rawValue: "not_found")
        /// The body is not `application/json`.
        public static let unsupportedMediaType = Code(rawValue: "unsupported_media_type")
        /// The body is larger than the tenant accepts.
        public static let payloadTooLarge = Code(rawValue: "payload_too_large")
        /// A fault of the tenant itself (its database); never caused by input.
        public static let serverError = Code(rawValue: "server_error")
        /// **[local]** The tenant's database cannot be reached for now (connection refused or lost, the
        /// server shutting down, no connection free in time): answered 503 with `Retry-After`
        /// (RFC 9110 §15.6.4, §10.2.3). Never caused by input.
        public static let temporarilyUnavailable = Code(rawValue: "temporarily_unavailable")

        // MARK: - Management API (auth0-passkey-api.md §15)

        /// The client may not use the grant it asked for (RFC 6749 §5.2).
        public static let unauthorizedClient = Code(rawValue: "unauthorized_client")
        /// The Management API's refusal of a body that is malformed or has unknown members.
        public static let invalidBody = Code(rawValue: "invalid_body")
        /// The Management API's refusal of a query parameter.
        public static let invalidQueryString = Code(rawValue: "invalid_query_string")
        /// The Management API's 404 for a user ID that names no user.
        public static let inexistentUser = Code(rawValue: "inexistent_user")
        /// The Management API's 409 for an identifier that belongs to a user already.
        public static let userExists = Code(rawValue: "auth0_idp_error")
        /// **[local]** The Management API's 409 for a passkey whose credential ID is registered already.
        public static let conflict = Code(rawValue: "conflict")

        // MARK: - Configuration

        /// A tenant configuration file is malformed; the detail names the key. Never a request's.
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        // MARK: - DPoP (RFC 9449)

        /// The `DPoP` proof is missing where one is needed, malformed, or does not hold for this
        /// request, key or token (RFC 9449 §5, §7.1).
        public static let invalidDPoPProof = Code(rawValue: "invalid_dpop_proof")
        /// The proof must carry a fresh `DPoP-Nonce` of the tenant, sent with this answer
        /// (RFC 9449 §8, §9).
        public static let useDPoPNonce = Code(rawValue: "use_dpop_nonce")
    }

    /// What went wrong.
    public let code: Code
    /// The HTTP status it is answered with.
    public let status: Int
    /// Why, in words for the client's developer. Never contains a secret.
    public let detail: String
    /// Seconds until a locked-out client may try again (`Retry-After`).
    public let retryAfter: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - status: the HTTP status; by default 400.
    ///   - detail: why; never a secret.
    ///   - retryAfter: seconds until the client may try again, for 429 and 503.
    public init(_ code: Code, status: Int = 400, _ detail: String, retryAfter: Int? = nil) {
        self.code = code
        self.status = status
        self.detail = detail
        self.retryAfter = retryAfter
    }

    /// The ``detail``, as `CodedError` names it.
    public var reason: String { detail }

    public var description: String { "\(code) (\(status)): \(detail)" }

    /// Whether the failure counts towards a lockout: every refusal of the client's input does;
    /// the lockout itself, a request for a DPoP nonce (a step of the protocol, RFC 9449 §8) and
    /// the tenant's own faults do not.
    var countsAsFailedAttempt: Bool { status < 500 && code != .tooManyAttempts && code != .useDPoPNonce }

    /// The database cannot be reached for now: 503 with `Retry-After: 1` (RFC 9110 §15.6.4).
    static let databaseUnavailable = TenantError(
        .temporarilyUnavailable, status: 503, "The database is unavailable; try again shortly.", retryAfter: 1)

    static func invalidRequest(_ detail: String) -> Self { Self(.invalidRequest, detail) }
    static func invalidGrant(_ detail: String) -> Self { Self(.invalidGrant, detail) }
}
