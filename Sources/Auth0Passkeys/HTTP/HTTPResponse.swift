/// One HTTP response as an ``HTTPTransport`` received it: the final status, header fields and
/// body.
///
/// Two responses are equal when their statuses, header fields (in order) and bodies are.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code of the final response (after any `1xx` interim answers).
    public var status: Int
    /// The header fields of the final response, in the order received.
    public var headers: [(name: String, value: String)]
    /// The body bytes, without transfer framing (a chunked body's chunks joined).
    public var body: [UInt8]
    /// How many new connections the transport opened for this exchange; 0 when it reused one,
    /// or when it has no connections to count. Logs and benchmarks read it; the clients do not.
    public var newConnections: Int

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: the status code.
    ///   - headers: the header fields, in the order received.
    ///   - body: the body bytes.
    ///   - newConnections: how many connections the exchange opened; 0 by default.
    public init(
        status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], newConnections: Int = 0
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.newConnections = newConnections
    }

    /// The value of the first header field named `name`, compared case-insensitively (RFC 9110
    /// §5.1).
    ///
    /// - Parameter name: the field name.
    /// - Returns: the field's value, or `nil` when the response has no such field.
    public func header(_ name: String) -> String? {
        HeaderFields.value(of: name, in: headers)
    }

    /// Whether the status is a success, as Auth0's SDK counts it: 200 through 300 inclusive (spec §0.3).
    package var isSuccess: Bool { (200...300).contains(status) }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && HeaderFields.equal(lhs.headers, rhs.headers)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(body)
    }
}
