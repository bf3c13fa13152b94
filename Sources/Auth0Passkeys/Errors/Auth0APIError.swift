import FoundationEssentials
public import WebAuthn

/// What ``AuthenticationError`` and ``MyAccountError`` share: an error answered by an Auth0 API,
/// or made by this library when there was no usable answer (spec §7).
///
/// As a `CodedError`: `CodedError/code` is Auth0's error code, or this library's
/// `a0.sdk.internal_error.*`; `CodedError/reason` the message; `CodedError/cause` the
/// ``TransportError`` or decoding error behind it.
///
/// `info` is the error body (a JSON object) with `statusCode` set to the HTTP status. When the
/// library makes the error itself, `info` holds `code` and `description`, as Auth0's SDK does:
///
/// | situation | code | statusCode | cause |
/// |---|---|---|---|
/// | no response (network, TLS, timeout) | `a0.sdk.internal_error.plain` | 0 | the ``TransportError`` |
/// | error status, body not a JSON object | `a0.sdk.internal_error.plain` | the status | — |
/// | success status, empty body where one is needed | `a0.sdk.internal_error.empty` | the status | — |
/// | success body that does not decode | `a0.sdk.internal_error.plain` | the status | the decoding error |
public protocol Auth0APIError: CodedError where Code == AuthenticationError.Code {
    /// What the API answered, or what this library made of no usable answer.
    var report: Auth0ErrorReport { get }

    /// Creates an error from what the API answered.
    ///
    /// - Parameter report: the body, the status and the cause.
    init(_ report: Auth0ErrorReport)
}

extension Auth0APIError {
    /// Creates an error from an Auth0 error body.
    ///
    /// - Parameters:
    ///   - info: the body's members.
    ///   - statusCode: the HTTP status; it overwrites `info["statusCode"]`.
    ///   - cause: the underlying error, if any.
    public init(info: [String: JSONValue], statusCode: Int, cause: (any Error)? = nil) {
        self.init(Auth0ErrorReport(info: Self.withStatus(info, statusCode), statusCode: statusCode, cause: cause))
    }

    /// The error body with `statusCode` added, or the library's own `code` and `description`.
    public var info: [String: JSONValue] { report.info }

    /// The HTTP status, or 0 when no response arrived.
    public var statusCode: Int { report.statusCode }

    /// The underlying error: a ``TransportError`` or a decoding error.
    public var cause: (any Error)? { report.cause }

    /// `<code> (HTTP <status>): <reason>`, then the cause when there is one.
    public var description: String { described("\(code) (HTTP \(statusCode)): \(reason)") }

    /// Whether the request never got a response because the network failed (spec §7.3).
    public var isNetworkError: Bool {
        (cause as? TransportError)?.isNetworkError ?? false
    }

    /// Whether trying again later may succeed: a network error, HTTP 429, or HTTP 500–599
    /// (spec §7.3).
    public var isRetryable: Bool {
        isNetworkError || statusCode == 429 || (500...599).contains(statusCode)
    }

    /// The error for an exchange that produced no response.
    package static func transportFailure(_ error: TransportError) -> Self {
        Self(info: sdkInfo(.plain, "Unable to complete the operation."), statusCode: 0, cause: error)
    }

    /// The error for an error status: the JSON object body, or the status and an excerpt when
    /// the body is not a JSON object.
    package static func errorResponse(_ response: HTTPResponse) -> Self {
        if let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(response.body)) {
            return Self(info: object, statusCode: response.status, cause: nil)
        }
        let text = String(decoding: response.body.prefix(200), as: UTF8.self)
        let excerpt = response.body.count > 200 ? text + "…" : text
        let what = response.body.isEmpty ? "an empty body" : "a body that is not a JSON object: \(excerpt)"
        return Self(
            info: sdkInfo(.plain, "HTTP \(response.status) with \(what)"), statusCode: response.status, cause: nil)
    }

    /// The error for a success status whose body was needed but empty.
    package static func emptyBody(_ status: Int) -> Self {
        Self(info: sdkInfo(.empty, "Empty response body."), statusCode: status, cause: nil)
    }

    /// The error for a success body that does not decode.
    package static func decodingFailure(_ error: any Error, status: Int) -> Self {
        Self(info: sdkInfo(.plain, "Unable to decode the response: \(error)"), statusCode: status, cause: error)
    }

    /// The error for a URL or setting a client refuses before sending anything; `reason` must
    /// not repeat a secret.
    package static func invalidConfiguration(_ reason: String) -> Self {
        Self(info: sdkInfo(.invalidConfiguration, reason), statusCode: 0)
    }

    /// `baseURL` as a client uses it (``BaseURL/validated(_:)``), or the error for one it refuses.
    static func validated(baseURL: String) throws(Self) -> String {
        switch BaseURL.validated(baseURL) {
        case .success(let url): url
        case .failure(let error): throw invalidConfiguration(error.reason)
        }
    }

    private static func sdkInfo(_ code: AuthenticationError.Code, _ description: String) -> [String: JSONValue] {
        ["code": .string(code.rawValue), "description": .string(description)]
    }

    /// `info` with `statusCode` set.
    static func withStatus(_ info: [String: JSONValue], _ statusCode: Int) -> [String: JSONValue] {
        var info = info
        info["statusCode"] = .number(Double(statusCode))
        return info
    }

    /// `description` with a final period, the SDK's message form.
    static func sentence(_ text: String) -> String {
        text.isEmpty || text.hasSuffix(".") ? text : text + "."
    }
}
