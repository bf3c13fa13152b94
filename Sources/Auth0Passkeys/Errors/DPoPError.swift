public import WebAuthn

/// Why a DPoP proof could not be made (RFC 9449), with the names of Auth0.swift's `DPoPError`
/// where it has one.
///
/// ``reason`` never holds a key or a token. Two errors are equal when their codes are equal.
public struct DPoPError: CodedError, Hashable {
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

    /// What went wrong.
    public let code: Code
    /// Why, in words fit for a terminal; never a key or a token.
    public let reason: String
    /// The underlying error, if any.
    public let cause: (any Error)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - reason: why; never a secret.
    ///   - cause: the underlying error.
    public init(_ code: Code, _ reason: String, cause: (any Error)? = nil) {
        self.code = code
        self.reason = reason
        self.cause = cause
    }

    public var description: String {
        var text = "\(code): \(reason)"
        if let cause { text += " Cause: \(cause)" }
        return text
    }
}
