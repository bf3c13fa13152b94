/// An Allowed Web Origin or Allowed Origin (CORS) of an application, and which request origins it
/// admits (Fetch §3.2 CORS protocol; RFC 6454 §4, §6.2 for an origin's serialization; Auth0's
/// `web_origins` and `allowed_origins`).
///
/// An origin is `scheme "://" host [":" port]`: no path, query, fragment or user information; a
/// configured one may end in one `/`. Scheme and host are compared lower-cased, and the scheme's
/// default port (80 for `http`, 443 for `https`) is left out, as a browser serializes an `Origin`
/// header. Matching is exact, except that a host `*.example.com` admits any host one label deeper
/// (`https://app.example.com`, not `https://example.com` nor `https://a.b.example.com`), the
/// subdomain wildcard Auth0 allows. `null` (an opaque origin) is never admitted.
///
/// ```
/// configured                   Origin header                 admitted
/// http://localhost:5173/       http://localhost:5173         yes
/// https://app.example          https://app.example:443       yes (same origin)
/// https://*.example.com        https://shop.example.com      yes
/// https://*.example.com        https://example.com           no
/// http://localhost:5173        http://localhost:5174         no
/// ```
struct AllowedOrigin: Sendable, Hashable {
    /// The serialized origin; its host starts with `*.` for a wildcard.
    let text: String
    private let scheme: String
    private let host: String
    private let port: String

    /// Reads a configured origin; nil for text that is not `scheme://host[:port]` (optionally with a
    /// trailing `/`), or whose `*` is anywhere but a whole first label of the host.
    init?(_ configured: String) {
        let value = configured.hasSuffix("/") ? String(configured.dropLast()) : configured
        guard let (scheme, host, port) = Self.components(value), host != "*.",
            !host.dropFirst(host.hasPrefix("*.") ? 2 : 0).contains("*")
        else { return nil }
        (self.scheme, self.host, self.port) = (scheme, host, port)
        text = "\(scheme)://\(host)\(port)"
    }

    /// Whether the request's `Origin` header value is this origin.
    func admits(_ origin: String) -> Bool {
        guard let (scheme, host, port) = Self.components(origin), !host.contains("*"),
            scheme == self.scheme, port == self.port
        else { return false }
        guard self.host.hasPrefix("*.") else { return host == self.host }
        let suffix = self.host.dropFirst()  // ".example.com"
        guard host.hasSuffix(suffix) else { return false }
        let label = host.dropLast(suffix.count)
        return !label.isEmpty && !label.contains(".")
    }

    /// The serialized origin of an absolute URL (RFC 6454 §6.2): `scheme://host[:port]`, lower-cased,
    /// the default port left out; nil for text that is not `scheme://authority[/path][?query]`, a
    /// URL with user information or a fragment. The path and query are dropped: this is the origin
    /// a page at that URL has.
    static func of(_ url: String) -> String? {
        guard !url.contains("#"), let parts = RegisteredURL.Parts(url),
            let (scheme, host, port) = components(parts), !host.contains("*")
        else { return nil }
        return "\(scheme)://\(host)\(port)"
    }

    /// The scheme, host and `:port` (empty for the default port) of a serialized origin.
    private static func components(_ text: String) -> (String, String, String)? {
        guard let parts = RegisteredURL.Parts(text), parts.rest.isEmpty else { return nil }
        return components(parts)
    }

    private static func components(_ parts: RegisteredURL.Parts) -> (String, String, String)? {
        let hostCharacters = "abcdefghijklmnopqrstuvwxyz0123456789-._*[]:"
        guard !parts.host.isEmpty,
            parts.scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            parts.host.allSatisfy({ hostCharacters.contains($0) })
        else { return nil }
        let defaultPort = ["http": 80, "https": 443][parts.scheme]
        let port = parts.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        return (parts.scheme, parts.host, port)
    }
}
