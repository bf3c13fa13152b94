/// An absolute `http` or `https` URL as a user agent with no browser reads it: its origin (RFC
/// 6454 §6.2), host and path, and how a `Location` is resolved against it (RFC 9110 §10.2.2).
///
/// Only what ``LoginPageUserAgent``, ``CookieJar`` and the embedded flow need: no user info,
/// no dot segments, no relative references other than an absolute path or a path on the same
/// origin.
struct PageURL: Sendable, Hashable {
    /// The URL as given.
    let text: String
    /// `scheme://host[:port]`, the scheme and host lower-case.
    let origin: String
    /// The host, lower-case, without the port.
    let host: String
    /// The host and the port, lower-case: what cookies are kept per.
    let authority: String
    /// The path, `/` when empty; no query or fragment.
    let path: String
    /// Whether the scheme is `https`.
    let isSecure: Bool

    /// Reads `text`, or nil for anything but an absolute `http` or `https` URL with a host.
    init?(_ text: String) {
        guard let separator = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = text[separator.upperBound...]
        let authority = rest.prefix { !"/?#".contains($0) }.lowercased()
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        let path = rest.dropFirst(authority.count).prefix { $0 != "?" && $0 != "#" }
        self.text = text
        self.origin = scheme + "://" + authority
        self.authority = authority
        self.host =
            authority.hasPrefix("[")
            ? String(authority.prefix { $0 != "]" }.dropFirst()) : String(authority.prefix { $0 != ":" })
        self.path = path.isEmpty ? "/" : String(path)
        self.isSecure = scheme == "https"
    }

    /// A `Location` read against this URL (RFC 9110 §10.2.2): absolute, an absolute path on
    /// this origin, or a path relative to this one's directory.
    func resolve(_ location: String) -> String {
        if location.contains("://") { return location }
        if location.hasPrefix("//") { return (isSecure ? "https:" : "http:") + location }
        if location.hasPrefix("/") { return origin + location }
        return origin + path.prefix(through: path.lastIndex(of: "/") ?? path.startIndex) + location
    }
}
