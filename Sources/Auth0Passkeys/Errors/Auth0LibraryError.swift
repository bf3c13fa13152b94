public import WebAuthn

/// What the errors this library makes itself share (``CredentialsManagerError``, ``DPoPError``,
/// ``WebAuthError``, ``IDTokenValidationError``, ``TransportError``): a code from the type's own
/// vocabulary, a reason in words and the error behind it, kept in one ``ErrorDetails`` value. ``Auth0APIError`` is the
/// same skeleton for the errors an API answers, over an ``Auth0ErrorReport``.
///
/// A conforming type declares its `Code` registry and stores its details; the initialiser, the
/// accessors and `description` come from here:
///
/// ```swift
/// public struct DPoPError: Auth0LibraryError, Hashable {
///     public struct Code: ErrorCode { … }
///     public let details: ErrorDetails<Code>
///     public init(details: ErrorDetails<Code>) { self.details = details }
/// }
/// throw DPoPError(.invalidURL, "a DPoP proof needs an absolute http or https URL")
/// ```
///
/// Two errors are equal when their codes are equal (`CodedError`).
public protocol Auth0LibraryError: CodedError {
    /// The code, the reason and the cause.
    var details: ErrorDetails<Code> { get }

    /// Creates an error from its details.
    ///
    /// - Parameter details: the code, the reason and the cause.
    init(details: ErrorDetails<Code>)
}

/// The code, the reason and the cause of an ``Auth0LibraryError``.
public struct ErrorDetails<Code: Sendable & Hashable>: Sendable {
    /// What went wrong.
    public let code: Code
    /// Why, in words fit for a terminal; never a key, a token, a code or a verifier.
    public let reason: String
    /// The underlying error, if any.
    public let cause: (any Error)?
}

extension Auth0LibraryError {
    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - reason: why, in words; never a secret.
    ///   - cause: the underlying error.
    public init(_ code: Code, _ reason: String, cause: (any Error)? = nil) {
        self.init(details: ErrorDetails(code: code, reason: reason, cause: cause))
    }

    /// What went wrong.
    public var code: Code { details.code }

    /// Why, in words fit for a terminal; never a secret.
    public var reason: String { details.reason }

    /// The underlying error, if any.
    public var cause: (any Error)? { details.cause }

    /// `<code>: <reason>`, then the cause when there is one.
    public var description: String { described("\(code): \(reason)") }
}

extension CodedError {
    /// `head`, then ` Cause: <cause>` when there is one: the description of every error of this
    /// library that wraps another.
    func described(_ head: String) -> String {
        cause.map { "\(head) Cause: \($0)" } ?? head
    }
}
