/// One HTTP request as an ``HTTPTransport`` sends it: method, absolute URL, header fields and
/// body.
///
/// The clients build it complete: the URL carries any query, and ``headers`` hold every field
/// the request needs (`Content-Type`, `Auth0-Client`, `Authorization`, …). A transport adds
/// only what its protocol needs (`Host`, `Content-Length`, `User-Agent`).
///
/// Two requests are equal when their methods, URLs, header fields (in order) and bodies are.
public struct HTTPRequest: Sendable, Hashable {
    /// The request methods the Auth0 APIs use.
    public enum Method: String, Sendable, Hashable {
        /// `GET`.
        case get = "GET"
        /// `POST`.
        case post = "POST"
        /// `PATCH`.
        case patch = "PATCH"
        /// `DELETE`.
        case delete = "DELETE"
    }

    /// The method.
    public var method: Method
    /// The absolute URL, `http` or `https`, with any query.
    public var url: String
    /// Header fields in the order they are sent; names as given.
    public var headers: [(name: String, value: String)]
    /// The body, or `nil` for none.
    public var body: [UInt8]?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: the method.
    ///   - url: the absolute URL, `http` or `https`.
    ///   - headers: the header fields, in the order to send them.
    ///   - body: the body, or `nil` for none.
    public init(method: Method, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field named `name`, compared case-insensitively (RFC 9110
    /// §5.1).
    ///
    /// - Parameter name: the field name.
    /// - Returns: the field's value, or `nil` when the request has no such field.
    public func header(_ name: String) -> String? {
        HeaderFields.value(of: name, in: headers)
    }

    /// The path of ``url``, without scheme, authority, query or fragment: `/oauth/token`. What a
    /// log, or a transport that routes requests in process, needs.
    public var path: String {
        let parts = url.split(separator: "://", maxSplits: 1)
        guard parts.count == 2 else { return String(url.prefix { $0 != "?" && $0 != "#" }) }
        let rest = parts[1].drop { $0 != "/" }
        return rest.isEmpty ? "/" : String(rest.prefix { $0 != "?" && $0 != "#" })
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body
            && HeaderFields.equal(lhs.headers, rhs.headers)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(body)
    }
}
