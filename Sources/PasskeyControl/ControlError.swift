public import WebAuthn

/// A refusal of the control API, in the WebDriver error shape (W3C WebDriver §6.6 "Errors"):
/// `{"value": {"error": CODE, "message": MESSAGE, "stacktrace": ""}}`.
///
/// The codes are WebDriver's where one fits (`invalid argument`, `invalid session id`, `unknown
/// command`), the WebAuthn `DOMException` name of a refused ceremony (`NotAllowedError`, …, as
/// the CLI prints them), or the Auth0 error of a virtual-user flow (`invalid_grant`, …).
///
/// Bad input is always a 4xx: WebDriver answers `unsupported operation` with 500, this API with
/// 400, since what is unsupported is what the client asked for.
public struct ControlError: CodedError, Hashable {
    /// The error code of the shape's `error` member.
    public let code: String
    /// The HTTP status.
    public let status: Int
    /// Why, in words fit for a log; never a key, token or passphrase.
    public let message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: the `error` member.
    ///   - status: the HTTP status.
    ///   - message: why.
    public init(_ code: String, status: Int, _ message: String) {
        self.code = code
        self.status = status
        self.message = message
    }

    /// WebDriver's `invalid argument` (400): the body, or an ID in the path, is not acceptable.
    public static func invalidArgument(_ message: String) -> ControlError {
        ControlError("invalid argument", status: 400, message)
    }

    /// WebDriver's `unsupported operation`, answered with 400.
    public static func unsupported(_ message: String) -> ControlError {
        ControlError("unsupported operation", status: 400, message)
    }

    /// WebDriver's `invalid session id` (404).
    public static func invalidSession(_ id: String) -> ControlError {
        ControlError("invalid session id", status: 404, "no session \(id)")
    }

    /// WebDriver's `unknown command` (404): no such route.
    public static let unknownCommand = ControlError("unknown command", status: 404, "no such command")

    /// A request without the server's bearer token (401).
    public static let unauthorized = ControlError(
        "unauthorized", status: 401, "send Authorization: Bearer <the token the server printed at start>")

    /// A page bridge request whose capability is unknown, or whose authenticator or session
    /// is gone (401).
    public static let unknownBridge = ControlError(
        "unauthorized", status: 401,
        "this page bridge's capability is unknown, or its authenticator was removed: fetch bridge.js again")

    /// A body over the limit (413).
    public static func tooLarge(limit: Int) -> ControlError {
        ControlError("invalid argument", status: 413, "the request body is over \(limit) bytes")
    }

    /// The ``message``, as `CodedError` names it.
    public var reason: String { message }

    public var description: String { "\(code) (HTTP \(status)): \(message)" }
}
