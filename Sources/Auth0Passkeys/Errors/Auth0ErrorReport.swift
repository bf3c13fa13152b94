public import WebAuthn

/// What an Auth0 API answered with an error, or what this library made of no usable answer: the
/// body an ``AuthenticationError`` or a ``MyAccountError`` reads its code and message from
/// (spec §7).
///
/// `info` is the error body (a JSON object) with `statusCode` set to the HTTP status; `statusCode`
/// is 0 when no response arrived, and `cause` is then the ``TransportError``.
public struct Auth0ErrorReport: Sendable {
    /// The error body with `statusCode` added, or the library's own `code` and `description`.
    public let info: [String: JSONValue]
    /// The HTTP status, or 0 when no response arrived.
    public let statusCode: Int
    /// The underlying error: a ``TransportError`` or a decoding error.
    public let cause: (any Error)?

    /// Creates a report as it is; ``Auth0APIError/init(info:statusCode:cause:)`` also sets
    /// `info["statusCode"]`.
    ///
    /// - Parameters:
    ///   - info: the body's members.
    ///   - statusCode: the HTTP status, or 0.
    ///   - cause: the underlying error, if any.
    public init(info: [String: JSONValue], statusCode: Int, cause: (any Error)?) {
        self.info = info
        self.statusCode = statusCode
        self.cause = cause
    }
}
