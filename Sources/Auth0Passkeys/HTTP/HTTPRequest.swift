/// One HTTP request as the transport sends it: method, absolute URL, header fields and body.
package struct HTTPRequest: Sendable, Hashable {
    /// The request methods the Auth0 APIs use.
    package enum Method: String, Sendable, Hashable {
        case get = "GET"
        case post = "POST"
        case patch = "PATCH"
        case delete = "DELETE"
    }

    package var method: Method
    /// The absolute URL, `http` or `https`.
    package var url: String
    /// Header fields in the order they are sent; names as given.
    package var headers: [(name: String, value: String)]
    /// The body, or `nil` for none.
    package var body: [UInt8]?

    package init(method: Method, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field named `name`, compared case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The path of `url`, without scheme, authority or query, for logs.
    package var path: String {
        let parts = url.split(separator: "://", maxSplits: 1)
        guard parts.count == 2 else { return String(url.prefix { $0 != "?" && $0 != "#" }) }
        let rest = parts[1].drop { $0 != "/" }
        return rest.isEmpty ? "/" : String(rest.prefix { $0 != "?" && $0 != "#" })
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(body)
    }
}
