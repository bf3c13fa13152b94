public import WebAuthn

/// Why a Web Auth login or logout failed (spec §14), with the codes of Auth0.swift's
/// `WebAuthError` where it has one.
///
/// ``reason`` never holds the code, the verifier or a token; the tenant's own `error_description`
/// of an error redirect is kept, since the tenant wrote it for the application's developer.
///
/// Two errors are equal when their codes are equal.
public struct WebAuthError: Auth0LibraryError, Hashable {
    /// What went wrong.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// No redirect URL was set, or the one set is not an absolute URL.
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")
        /// The invitation link has no `invitation` and `organization` in its query.
        public static let invalidInvitationURL = Code(rawValue: "invalidInvitationURL")
        /// The user agent was cancelled before the tenant redirected back.
        public static let userCancelled = Code(rawValue: "userCancelled")
        /// The user agent could not show the page or bring the redirect back; the cause says why.
        public static let userAgentFailed = Code(rawValue: "userAgentFailed")
        /// The redirect is not for this login: another URL, or its `state` is not the one sent
        /// (RFC 6749 §10.12: a forged or replayed callback).
        public static let invalidCallback = Code(rawValue: "invalidCallback")
        /// The tenant redirected back with `error` (RFC 6749 §4.1.2.1), or refused the code
        /// exchange; ``WebAuthError/authenticationError`` holds its answer.
        public static let authenticationFailed = Code(rawValue: "authenticationFailed")
        /// The redirect carries neither a code nor an error.
        public static let noAuthorizationCode = Code(rawValue: "noAuthorizationCode")
        /// The application may not use PKCE: the exchange was refused as `Unauthorized` (spec
        /// §14.3), which means it is not a native (public) application.
        public static let pkceNotAllowed = Code(rawValue: "pkceNotAllowed")
        /// The ID token failed validation (spec §14.5); the cause is the ``IDTokenValidationError``.
        public static let idTokenValidationFailed = Code(rawValue: "idTokenValidationFailed")
    }

    /// The tenant's answer, for ``Code/authenticationFailed`` and ``Code/pkceNotAllowed``.
    public var authenticationError: AuthenticationError? { cause as? AuthenticationError }

    public let details: ErrorDetails<Code>

    public init(details: ErrorDetails<Code>) { self.details = details }
}
