/// An Allowed Callback URL or Allowed Logout URL, and which presented URLs it admits.
///
/// Matching is exact, character for character, on scheme, host, path and query (RFC 6749
/// §3.1.2.2, OAuth 2.0 Security BCP: no prefix or wildcard matching), with one exception: a
/// registered URL on a loopback host (`127.0.0.1`, `[::1]`, `localhost`) that names no port
/// admits the same URL on any port, since a native app's loopback listener gets its port from the
/// system at run time (RFC 8252 §7.3, §8.3). A URL with a fragment is never admitted (RFC 6749
/// §3.1.2).
///
/// ```
/// registered                        presented                          admitted
/// http://127.0.0.1/callback         http://127.0.0.1:53117/callback    yes
/// http://127.0.0.1/callback         http://127.0.0.1:53117/callback/x  no
/// https://app.example/cb            https://app.example:444/cb         no
/// ```
struct RegisteredURL: Sendable, Hashable {
    /// The URL as configured.
    let text: String

    /// Wraps a configured URL.
    init(_ text: String) {
        self.text = text
    }

    /// Whether `presented` is this URL, or this loopback URL on some port.
    func admits(_ presented: String) -> Bool {
        guard !presented.contains("#") else { return false }
        if presented == text { return true }
        guard let registered = Parts(text), registered.port == nil, Self.isLoopback(registered.host),
            let candidate = Parts(presented), candidate.port != nil
        else { return false }
        return candidate.scheme == registered.scheme && candidate.host == registered.host
            && candidate.rest == registered.rest
    }

    /// Whether `host` (brackets kept for IPv6) is a loopback name or address RFC 8252 §7.3 and
    /// §8.3 speak of.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// A URL split into scheme, host, port and the rest (path and query), without decoding.
    struct Parts: Hashable {
        let scheme: String
        let host: String
        let port: Int?
        let rest: String

        /// Splits `text`; nil for text that is not `scheme://authority[/path][?query]` or that
        /// carries user information.
        init?(_ text: String) {
            let pieces = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
            guard pieces.count == 2, !pieces[0].isEmpty else { return nil }
            let remainder = pieces[1]
            let end = remainder.firstIndex { $0 == "/" || $0 == "?" } ?? remainder.endIndex
            var authority = remainder[..<end]
            guard !authority.isEmpty, !authority.contains("@") else { return nil }
            var port: Int?
            if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
                guard let value = Int(authority[authority.index(after: colon)...]), (0...65535).contains(value)
                else { return nil }
                port = value
                authority = authority[..<colon]
            }
            scheme = pieces[0].lowercased()
            host = authority.lowercased()
            self.port = port
            rest = String(remainder[end...])
        }
    }
}
