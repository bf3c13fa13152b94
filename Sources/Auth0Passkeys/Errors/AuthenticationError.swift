public import WebAuthn

/// An error from Auth0's Authentication API (`/passkey/*`, `/oauth/*`, `/userinfo`), or one this
/// library made when there was no usable answer (spec §7.1, §7.3).
///
/// Both Auth0 body shapes are read: OAuth (`{"error", "error_description"}`) and the legacy one
/// (`{"code", "description", "name"}`). ``code`` is `error`, else `code`, else
/// `a0.sdk.internal_error.unknown`; the message is `description`, else `error_description`, else
/// `message` and `policy` (``reason``).
///
/// ```swift
/// do {
///     credentials = try await auth.renew(withRefreshToken: token).start()
/// } catch let error where error.isInvalidRefreshToken {
///     // sign in again
/// } catch let error where error.isRetryable {
///     // try again later
/// }
/// ```
///
/// Two errors are equal when their codes are equal.
public struct AuthenticationError: Auth0APIError, Hashable {
    /// The error code: Auth0's (`invalid_grant`, `mfa_required`, …) or this library's
    /// (`a0.sdk.internal_error.*`).
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// No usable response: a transport failure, a non-JSON error body, or an undecodable
        /// success body.
        public static let plain = Code(rawValue: "a0.sdk.internal_error.plain")
        /// A success status with an empty body where one was needed.
        public static let empty = Code(rawValue: "a0.sdk.internal_error.empty")
        /// A client was given a base URL it refuses (not https, or plain http to a host that is
        /// not loopback).
        public static let invalidConfiguration = Code(rawValue: "a0.sdk.internal_error.invalid_configuration")
        /// An error body with neither `error` nor `code`.
        public static let unknown = Code(rawValue: "a0.sdk.internal_error.unknown")
        /// The grant, session or token is invalid or expired (OAuth 2.0 `invalid_grant`).
        public static let invalidGrant = Code(rawValue: "invalid_grant")
        /// The request is malformed, or the identifier is taken (OAuth 2.0 `invalid_request`).
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// The application may not use this grant.
        public static let unauthorizedClient = Code(rawValue: "unauthorized_client")
        /// The application did not authenticate: a confidential client's secret missing or wrong,
        /// or sent another way than its `token_endpoint_auth_method` (OAuth 2.0 `invalid_client`,
        /// RFC 6749 §5.2; status 401).
        public static let invalidClient = Code(rawValue: "invalid_client")
    }

    public let report: Auth0ErrorReport

    public init(_ report: Auth0ErrorReport) {
        self.report = report
    }

    /// `error`, else `code`, else ``Code/unknown``.
    public var code: Code {
        if let error = info["error"]?.stringValue { return Code(rawValue: error) }
        if let code = info["code"]?.stringValue { return Code(rawValue: code) }
        return .unknown
    }

    /// The message: `description`, else `error_description`, else `message` followed by the
    /// `policy` on lines of its own when the body has a code (`/dbconnections/signup`'s
    /// `invalid_password`, whose `description` is an object of rules), else a generic text; with a
    /// final period.
    public var reason: String {
        if let text = info["description"]?.stringValue ?? info["error_description"]?.stringValue {
            return Self.sentence(text)
        }
        guard code != .unknown, let message = info["message"]?.stringValue else {
            return Self.sentence("Failed with unknown error")
        }
        guard let policy = info["policy"]?.stringValue, !policy.isEmpty else { return Self.sentence(message) }
        return Self.sentence(message) + "\n" + policy
    }

    /// The raw `description` or `error_description`, for the predicates that compare exact texts.
    private var rawDescription: String? {
        info["description"]?.stringValue ?? info["error_description"]?.stringValue
    }

    /// Multi-factor authentication is required (`mfa_required`, `a0.mfa_required`).
    public var isMultifactorRequired: Bool { isCode("mfa_required", "a0.mfa_required") }
    /// Multi-factor enrollment is required.
    public var isMultifactorEnrollRequired: Bool {
        isCode("a0.mfa_registration_required", "unsupported_challenge_type")
    }
    /// The multi-factor code is wrong.
    public var isMultifactorCodeInvalid: Bool {
        isCode("a0.mfa_invalid_code")
            || has(.invalidGrant, ["Invalid otp_code.", "Invalid binding_code.", "MFA Authorization rejected."])
    }
    /// The multi-factor token is expired or malformed.
    public var isMultifactorTokenInvalid: Bool {
        has(Code(rawValue: "expired_token"), ["mfa_token is expired"]) || has(.invalidGrant, ["Malformed mfa_token"])
    }
    /// The username/password or verification code is wrong.
    public var isInvalidCredentials: Bool {
        isCode("invalid_user_password")
            || has(
                .invalidGrant,
                [
                    "Wrong email or password.", "Wrong email or verification code.",
                    "Wrong phone number or verification code.",
                ])
    }
    /// The refresh token's user no longer exists.
    public var isRefreshTokenDeleted: Bool {
        has(.invalidGrant, ["The refresh_token was generated for a user who doesn't exist anymore."])
    }
    /// The refresh token is unknown, revoked or expired.
    public var isInvalidRefreshToken: Bool { has(.invalidGrant, ["Unknown or invalid refresh token."]) }
    /// An Action or rule denied access.
    public var isAccessDenied: Bool { isCode("access_denied") }
    /// The account is blocked after too many attempts.
    public var isTooManyAttempts: Bool { isCode("too_many_attempts") }
    /// The user must verify (for example their email) first.
    public var isVerificationRequired: Bool { isCode("requires_verification") }
    /// The password was found in a breach.
    public var isPasswordLeaked: Bool { isCode("password_leaked") }
    /// The password does not meet the policy.
    public var isPasswordNotStrongEnough: Bool {
        isCode("invalid_password") && info["name"]?.stringValue == "PasswordStrengthError"
    }
    /// The password was used before.
    public var isPasswordAlreadyUsed: Bool {
        isCode("invalid_password") && info["name"]?.stringValue == "PasswordHistoryError"
    }
    /// A rule failed (`unauthorized`).
    public var isRuleError: Bool { isCode("unauthorized") }
    /// The user must log in again.
    public var isLoginRequired: Bool { isCode("login_required") }
    /// The server wants a DPoP nonce (`use_dpop_nonce`).
    public var isDPoPNonceRequired: Bool { isCode("use_dpop_nonce") }

    private func isCode(_ codes: String...) -> Bool { codes.contains(code.rawValue) }

    private func has(_ code: Code, _ descriptions: [String]) -> Bool {
        self.code == code && descriptions.contains(rawDescription ?? "")
    }

}
