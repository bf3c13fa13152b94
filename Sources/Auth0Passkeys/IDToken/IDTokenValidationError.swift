public import WebAuthn

/// Why ``IDTokenValidator`` refused an ID token: the first check that failed, in the order Auth0's
/// SDK runs them (spec §6.5, §14.5).
///
/// ``reason`` names the claim and never contains the token or a claim's value.
///
/// Two errors are equal when their codes are equal.
public struct IDTokenValidationError: Auth0LibraryError, Hashable {
    /// Which check failed.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The signature does not verify with the key the token names, or the token is not
        /// `RS256` (spec §6.5: the only algorithm Auth0's SDK accepts).
        public static let invalidSignature = Code(rawValue: "invalid-signature")
        /// The header has no `kid`, or the tenant's JWKS has no key with it, even fetched again.
        public static let unknownKey = Code(rawValue: "unknown-key")
        /// `iss` is not the tenant's issuer (`https://DOMAIN/`).
        public static let wrongIssuer = Code(rawValue: "wrong-issuer")
        /// `sub` is missing or empty.
        public static let missingSubject = Code(rawValue: "missing-subject")
        /// `aud` does not contain the client ID.
        public static let wrongAudience = Code(rawValue: "wrong-audience")
        /// `exp` + leeway is not after now, or `exp` is missing.
        public static let expired = Code(rawValue: "expired")
        /// `iat` is missing.
        public static let missingIssuedAt = Code(rawValue: "missing-issued-at")
        /// A nonce was sent and `nonce` is missing or different.
        public static let wrongNonce = Code(rawValue: "wrong-nonce")
        /// `aud` has several entries and `azp` is not the client ID.
        public static let wrongAuthorizedParty = Code(rawValue: "wrong-authorized-party")
        /// A max age was sent and `auth_time` + max age + leeway is before now.
        public static let authTimeTooOld = Code(rawValue: "auth-time-too-old")
        /// A max age was sent and `auth_time` is missing.
        public static let missingAuthTime = Code(rawValue: "missing-auth-time")
        /// An organization was asked and `org_id` (or `org_name`) is missing or different.
        public static let wrongOrganization = Code(rawValue: "wrong-organization")
        /// The token is not a JWS in compact form with a JSON header and claims (RFC 7515 §7.1).
        public static let malformed = Code(rawValue: "malformed")
        /// The tenant's JWKS could not be fetched or read.
        public static let jwksUnavailable = Code(rawValue: "jwks-unavailable")
        /// The issuer was to be read from the tenant's discovery document, which could not be
        /// fetched or names no issuer URL.
        public static let discoveryUnavailable = Code(rawValue: "discovery-unavailable")
    }

    /// `<code>: <reason>`; the cause of an unreachable JWKS or discovery document is in ``cause``.
    public var description: String { "\(code): \(reason)" }

    public let details: ErrorDetails<Code>

    public init(details: ErrorDetails<Code>) { self.details = details }
}

extension IDTokenValidationError {
    /// The error for a document the validator could not fetch (`what`: the JWKS, the discovery
    /// document): no answer, with the ``TransportError`` as cause, or the status answered.
    init(_ code: Code, fetching what: String, _ error: AuthenticationError) {
        if error.statusCode == 0 {
            self.init(code, "The tenant's \(what) could not be fetched.", cause: error.cause)
        } else {
            self.init(code, "The tenant's \(what) answered HTTP \(error.statusCode).")
        }
    }
}
