import FoundationEssentials
public import WebAuthn

/// One Auth0 API call, ready to start: the value every client method returns, as in Auth0.swift.
///
/// Nothing is sent until ``start()``. Before that, ``parameters(_:)`` adds or overrides body
/// members (query items on a GET) and ``headers(_:)`` adds header fields; both return a new
/// request, so a request value can be kept and started more than once (each start is a new
/// exchange).
///
/// ```swift
/// let challenge = try await auth
///     .passkeyLoginChallenge(connection: "Username-Password-Authentication")
///     .headers(["X-Request-Id": requestID])
///     .start()
/// ```
public struct Request<Value: Sendable, Failure: Auth0APIError>: Sendable {
    let client: HTTPClient
    let method: HTTPRequest.Method
    let url: String
    private(set) var body: [String: JSONValue]?
    private(set) var extraHeaders: [(name: String, value: String)]
    /// Whether the request may be sent again after a retryable failure (``RetryPolicy``).
    let retryable: Bool
    /// Turns a success response into the value, or throws the failure.
    let handle: @Sendable (HTTPResponse) throws(Failure) -> Value
    /// When and with what the request carries a DPoP proof (spec §16.2); `nil` for never.
    let dpop: DPoPSigner?

    init(
        client: HTTPClient,
        method: HTTPRequest.Method,
        url: String,
        body: [String: JSONValue]? = nil,
        headers: [(name: String, value: String)] = [],
        retryable: Bool,
        dpop: DPoPSigner? = nil,
        handle: @escaping @Sendable (HTTPResponse) throws(Failure) -> Value
    ) {
        self.client = client
        self.method = method
        self.url = url
        self.body = body
        self.extraHeaders = headers
        self.retryable = retryable
        self.dpop = dpop
        self.handle = handle
    }

    /// Adds members to the body (or, on a GET, query items); a member given here replaces the
    /// one the method built. A `scope` given here still gets `openid` (spec §3.3, §6.1).
    ///
    /// - Parameter parameters: the members to add or replace.
    /// - Returns: the request with those members.
    public func parameters(_ parameters: [String: JSONValue]) -> Self {
        var copy = self
        var members = body ?? [:]
        for (name, value) in parameters {
            members[name] = value
        }
        if let scope = members["scope"]?.stringValue, method != .get {
            members["scope"] = .string(Scope.includingOpenID(scope))
        }
        copy.body = members
        return copy
    }

    /// Adds header fields, sent after the standard ones.
    ///
    /// - Parameter headers: the fields to add.
    /// - Returns: the request with those fields.
    public func headers(_ headers: [String: String]) -> Self {
        var copy = self
        copy.extraHeaders += headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        return copy
    }

    /// The HTTP request this value sends.
    package var httpRequest: HTTPRequest {
        var target = url
        var payload: [UInt8]?
        if method == .get {
            let items = (body ?? [:]).sorted { $0.key < $1.key }.map { name, value in
                "\(PercentEncoding.encode(name))=\(PercentEncoding.encode(value.stringValue ?? Self.json(value)))"
            }
            if !items.isEmpty { target += (url.contains("?") ? "&" : "?") + items.joined(separator: "&") }
        } else if let body {
            payload = WebAuthnJSON.encode(JSONValue.object(body))
        }
        return HTTPRequest(method: method, url: target, headers: client.standardHeaders + extraHeaders, body: payload)
    }

    /// Sends the request (again after retryable failures when it is safe to repeat) and decodes
    /// the answer.
    ///
    /// - Returns: the decoded value.
    /// - Throws: `Failure`, for an error status, a transport failure or an undecodable body.
    public func start() async throws(Failure) -> Value {
        let response: HTTPResponse
        do {
            response = try await client.perform(httpRequest, retryable: retryable, dpop: dpop)
        } catch {
            throw Failure.transportFailure(error)
        }
        guard response.isSuccess else { throw Failure.errorResponse(response) }
        return try handle(response)
    }

    /// Compact JSON, keys sorted, `/` unescaped: `WebAuthnJSON.encode(_:)`, which writes a body
    /// of strings, booleans, arrays and objects itself and leaves one with numbers to `JSONEncoder`.
    private static func json(_ value: JSONValue) -> String {
        String(decoding: WebAuthnJSON.encode(value), as: UTF8.self)
    }
}

/// The response handlers the clients share.
enum ResponseHandling {
    /// Decodes the JSON body as `Value`; an empty body is ``AuthenticationError/Code/empty``.
    static func json<Value: Decodable & Sendable, Failure: Auth0APIError>(
        _ type: Value.Type, _ failure: Failure.Type
    ) -> @Sendable (HTTPResponse) throws(Failure) -> Value {
        { response throws(Failure) in
            guard !response.body.isEmpty else { throw Failure.emptyBody(response.status) }
            do {
                return try JSONDecoder().decode(Value.self, from: Data(response.body))
            } catch {
                throw Failure.decodingFailure(error, status: response.status)
            }
        }
    }

    /// Ignores the body: any success answers.
    static func none<Failure: Auth0APIError>(_ failure: Failure.Type)
        -> @Sendable (HTTPResponse) throws(Failure) -> Void
    {
        { _ throws(Failure) in }
    }
}

/// JSON bodies built from `Encodable` wire structs, so that ``Request/parameters(_:)`` can merge
/// members into them.
enum JSONObject {
    /// The members of `value`'s JSON encoding; `nil` members are omitted, never `null`. Read back
    /// with the JSON scanner where it can (a body without numbers), else with `JSONDecoder`.
    static func members(of value: some Encodable) -> [String: JSONValue] {
        // The wire structs hold strings, numbers, booleans and JSONValues: they always encode,
        // and their encoding is always an object.
        guard let members = try? WebAuthnJSON.decode([String: JSONValue].self, from: WebAuthnJSON.encode(value))
        else { preconditionFailure("a wire body did not encode as a JSON object") }
        return members
    }
}
