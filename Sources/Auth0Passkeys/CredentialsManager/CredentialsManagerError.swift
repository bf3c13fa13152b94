public import WebAuthn

/// Why a ``CredentialsManager`` operation failed (spec §9). The underlying error, an
/// ``AuthenticationError`` or a storage error, is in ``cause``.
///
/// Two errors are equal when their codes are equal.
public struct CredentialsManagerError: Auth0LibraryError, Hashable {
    /// What went wrong.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Nothing is stored.
        public static let noCredentials = Code(rawValue: "noCredentials")
        /// The stored credentials need renewing but have no refresh token.
        public static let noRefreshToken = Code(rawValue: "noRefreshToken")
        /// The refresh request failed.
        public static let renewFailed = Code(rawValue: "renewFailed")
        /// The exchange of the refresh token for API credentials failed.
        public static let apiExchangeFailed = Code(rawValue: "apiExchangeFailed")
        /// The exchange of the refresh token for SSO credentials failed (Auth0.swift's
        /// `ssoExchangeFailed`).
        public static let ssoExchangeFailed = Code(rawValue: "ssoExchangeFailed")
        /// The revoke request failed; the credentials are kept.
        public static let revokeFailed = Code(rawValue: "revokeFailed")
        /// The storage could not save.
        public static let storeFailed = Code(rawValue: "storeFailed")
        /// The storage could not delete.
        public static let clearFailed = Code(rawValue: "clearFailed")
        /// Even fresh credentials expire within the minimum time-to-live asked for.
        public static let largeMinTTL = Code(rawValue: "largeMinTTL")
        /// The storage holds credentials it could not read: sealed under another key, altered,
        /// or not credentials; nothing was changed.
        public static let readFailed = Code(rawValue: "readFailed")
        /// The storage requires a passphrase (``CredentialsManager/requirePassphrase(_:)``) and
        /// the manager has no way to ask for it (``CredentialsManager/setPassphrasePrompt(_:)``).
        public static let passphraseRequired = Code(rawValue: "passphraseRequired")
        /// The passphrase given is wrong, or asking for it failed: the analogue of Auth0.swift's
        /// `biometricsFailed`.
        public static let passphraseFailed = Code(rawValue: "passphraseFailed")
        /// The manager validates ID tokens (``CredentialsManager/idTokenValidator``) and the one
        /// to store failed; nothing was stored. The ``IDTokenValidationError`` is the cause.
        public static let invalidIDToken = Code(rawValue: "invalidIDToken")
        /// The stored credentials are DPoP-bound (`token_type` `DPoP`) but their entry holds no
        /// DPoP key, so nothing can renew them (Auth0.swift 2.19's `dpopKeyMissing`).
        public static let dpopKeyMissing = Code(rawValue: "dpopKeyMissing")
    }

    static let noCredentials = Self(.noCredentials, "No credentials were found in the store.")
    static let noRefreshToken = Self(
        .noRefreshToken, "The stored credentials have no refresh token, so they cannot be renewed.")

    static let dpopKeyMissing = Self(
        .dpopKeyMissing, "The stored credentials are bound to a DPoP key that the session no longer holds.")

    static func largeMinTTL(minTTL: Int, lifetime: Int) -> Self {
        Self(
            .largeMinTTL,
            "The minTTL requested (\(minTTL) s) is greater than the lifetime of the renewed access token "
                + "(\(lifetime) s).")
    }

    public let details: ErrorDetails<Code>

    public init(details: ErrorDetails<Code>) { self.details = details }
}
