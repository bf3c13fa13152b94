/// One HTTP response as the transport received it.
package struct HTTPResponse: Sendable, Hashable {
    /// The status code of the final response.
    package var status: Int
    /// The header fields of the final response, in the order received.
    package var headers: [(name: String, value: String)]
    /// The body bytes (after any content decoding).
    package var body: [UInt8]
    /// How many new connections the transport opened for this exchange; 0 when it reused one.
    package var newConnections: Int

    package init(
        status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], newConnections: Int = 0
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.newConnections = newConnections
    }

    /// The value of the first header field named `name`, compared case-insensitively (RFC 9110 §5.1).
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Whether the status is a success, as Auth0's SDK counts it: 200 through 300 inclusive (spec §0.3).
    package var isSuccess: Bool { (200...300).contains(status) }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(body)
    }
}
