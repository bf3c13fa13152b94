import WebAuthn

/// An error from Auth0's Management API (`/api/v2/…`), or one this library made when there was no
/// usable answer (spec §15.4, §7.3).
///
/// The body is `{"statusCode", "error", "message", "errorCode"}`: `error` is the HTTP reason
/// phrase (`Forbidden`), `message` says what went wrong, `errorCode` is the machine-readable code
/// (`insufficient_scope`, `inexistent_user`, `invalid_body`, `auth0_idp_error`, …) and may be
/// absent. ``code`` is `errorCode`, else this library's `code`
/// (`a0.sdk.internal_error.*`), else `a0.sdk.internal_error.unknown`; ``statusCode`` is the HTTP
/// status.
///
/// ```swift
/// do {
///     _ = try await management.users.get(id: userID).start()
/// } catch let error where error.isNotFound {
///     // no such user
/// } catch let error where error.isInsufficientScope {
///     // the machine-to-machine client lacks read:users
/// }
/// ```
///
/// Two errors are equal when their codes are equal.
public struct ManagementAPIError: Auth0APIError, Hashable {
    public let report: Auth0ErrorReport

    public init(_ report: Auth0ErrorReport) {
        self.report = report
    }

    /// `errorCode`, else this library's `code`, else ``AuthenticationError/Code/unknown``.
    public var code: AuthenticationError.Code {
        if let errorCode { return .init(rawValue: errorCode) }
        if let code = info["code"]?.stringValue { return .init(rawValue: code) }
        return .unknown
    }

    /// `errorCode`, when the API sent one.
    public var errorCode: String? { info["errorCode"]?.stringValue }

    /// `error`: the HTTP reason phrase, such as `Not Found`; empty when absent.
    public var error: String { info["error"]?.stringValue ?? "" }

    /// `message`, else this library's `description`, else ``error``; with a final period.
    public var message: String {
        Self.sentence(info["message"]?.stringValue ?? info["description"]?.stringValue ?? error)
    }

    /// ``message``.
    public var reason: String { message }

    /// The token lacks a scope the call needs (HTTP 403, `insufficient_scope`).
    public var isInsufficientScope: Bool { errorCode == "insufficient_scope" }

    /// The user or the authentication method does not exist (HTTP 404).
    public var isNotFound: Bool { statusCode == 404 }

    /// The user, or the passkey's credential ID, exists already (HTTP 409).
    public var isConflict: Bool { statusCode == 409 }

    /// The token was refused: missing, expired, or not one for the Management API (HTTP 401).
    public var isInvalidToken: Bool { statusCode == 401 }
}
