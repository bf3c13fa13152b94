public import WebAuthn

/// Why a DPoP proof could not be made (RFC 9449), with the names of Auth0.swift's `DPoPError`
/// where it has one.
///
/// ``reason`` never holds a key or a token. Two errors are equal when their codes are equal.
public struct DPoPError: Auth0LibraryError, Hashable {
    /// What went wrong.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The stored private key is not a P-256 scalar.
        public static let invalidKey = Code(rawValue: "invalidKey")
        /// The proof could not be signed; the cause says why.
        public static let signingFailed = Code(rawValue: "signingFailed")
        /// The request's URL is not an absolute `http` or `https` URL, so it has no `htu`.
        public static let invalidURL = Code(rawValue: "invalidURL")
    }

    public let details: ErrorDetails<Code>

    public init(details: ErrorDetails<Code>) { self.details = details }
}
