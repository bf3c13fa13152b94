import Auth0Passkeys
import Foundation

/// A browser for tests that span two tenants over loopback: the real libcurl client
/// (``CurlTransport``, trusting the test CA), redirects not followed (the test reads each
/// `Location`), and a cookie jar per origin (`scheme://host:port`).
///
/// A real browser keys cookies by host alone, so two tenants on `localhost` at two ports share
/// a jar there; per origin here, each tenant's `passkey_session` stays its own.
actor TestBrowser {
    private let transport: CurlTransport
    private var jar: [String: [String: String]] = [:]

    /// A browser trusting `caBundlePath`.
    init(caBundlePath: String) {
        transport = CurlTransport(configuration: .init(caBundlePath: caBundlePath), environment: [:])
    }

    /// `GET url` with the origin's cookies.
    func get(_ url: String) async throws -> HTTPResponse {
        try await send(HTTPRequest(method: .get, url: url))
    }

    /// `POST url` with a JSON body, the origin's cookies and `Origin: <its origin>`, as the login
    /// page's script posts.
    func post(_ url: String, json: some Encodable) async throws -> HTTPResponse {
        let body = try JSONEncoder().encode(json)
        return try await send(
            HTTPRequest(
                method: .post, url: url,
                headers: [
                    (name: "Content-Type", value: "application/json"), (name: "Origin", value: Self.origin(url)),
                ],
                body: Array(body)))
    }

    /// `POST url` with a raw JSON body and no cookie (an application's back channel).
    func postJSON(_ url: String, _ object: [String: String]) async throws -> HTTPResponse {
        try await transport.send(
            HTTPRequest(
                method: .post, url: url, headers: [(name: "Content-Type", value: "application/json")],
                body: Array(try JSONEncoder().encode(object))))
    }

    /// A cookie of an origin.
    func cookie(_ name: String, at url: String) -> String? {
        jar[Self.origin(url)]?[name]
    }

    /// Forgets the cookies of an origin.
    func clearCookies(at url: String) {
        jar[Self.origin(url)] = nil
    }

    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        let origin = Self.origin(request.url)
        if let cookies = jar[origin], !cookies.isEmpty {
            request.headers.append((name: "Cookie", value: cookies.map { "\($0)=\($1)" }.joined(separator: "; ")))
        }
        let response = try await transport.send(request)
        for (name, value) in response.headers where name.lowercased() == "set-cookie" {
            let pair = value.prefix { $0 != ";" }.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map(String.init)
            guard pair.count == 2 else { continue }
            if value.contains("Max-Age=0") {
                jar[origin]?[pair[0]] = nil
            } else {
                jar[origin, default: [:]][pair[0]] = pair[1]
            }
        }
        return response
    }

    /// `scheme://host:port` of an absolute URL.
    static func origin(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        return String(url[..<scheme.upperBound]) + rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }
}
