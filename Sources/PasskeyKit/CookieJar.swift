import Synchronization

/// The cookies a user agent with no browser keeps across the hops of one login: each response's
/// `Set-Cookie` stored, each request's `Cookie` built (RFC 6265 §5.2–§5.4), so that a flow
/// through several origins (the app's tenant, the provider, back) finds each origin's cookies
/// as a browser would.
///
/// Enough of RFC 6265 for the tenants' cookies, and stricter where it is simpler:
/// - cookies are kept per host **and port** (RFC 6265 §8.5 shares them between the ports of one
///   host; two local tenants on `localhost` would then overwrite each other's `passkey_session`),
///   and a `Domain` attribute is ignored: every cookie is host-only (§5.3 step 6);
/// - `Path` as §5.2.4 and §5.1.4 (the default path, path-match); `Secure` cookies go over
///   `https` only (§5.4 step 1); `Max-Age` (§5.2.2) deletes at 0 or less and expires after;
///   `Expires` is not read (the tenants set `Max-Age`);
/// - the `Cookie` header lists longer paths first (§5.4 step 2).
///
/// A reference: the hops of one ``LoginPageUserAgent/open(_:awaitingRedirectTo:)`` share one.
package final class CookieJar: Sendable {
    private struct Cookie {
        let name: String
        let value: String
        let authority: String
        let path: String
        let secure: Bool
        let expiry: ContinuousClock.Instant?
    }

    private let cookies = Mutex<[Cookie]>([])

    /// An empty jar.
    package init() {}

    /// Keeps each `Set-Cookie` of `response`, which answered a request to `url`.
    ///
    /// - Parameters:
    ///   - setCookies: the `Set-Cookie` values, in order.
    ///   - url: where the request went.
    package func store(_ setCookies: [String], from url: String) {
        guard let page = PageURL(url) else { return }
        let now = ContinuousClock.now
        for line in setCookies {
            var attributes = line.split(separator: ";").map { $0.drop { $0 == " " } }
            guard !attributes.isEmpty, let equals = attributes[0].firstIndex(of: "=") else { continue }
            let pair = attributes.removeFirst()
            let name = pair[..<equals].trimmedSpaces()
            guard !name.isEmpty else { continue }
            var path = Self.defaultPath(page.path)
            var secure = false
            var expiry: ContinuousClock.Instant?
            for attribute in attributes {
                let parts = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let value = parts.count > 1 ? parts[1].trimmedSpaces() : ""
                switch parts[0].trimmedSpaces().lowercased() {
                case "path" where value.hasPrefix("/"): path = value
                case "secure": secure = true
                case "max-age": if let seconds = Int(value) { expiry = now + .seconds(max(seconds, 0)) }
                default: break
                }
            }
            let cookie = Cookie(
                name: name, value: pair[pair.index(after: equals)...].trimmedSpaces(),
                authority: page.authority, path: path, secure: secure, expiry: expiry)
            cookies.withLock { cookies in
                cookies.removeAll { $0.name == name && $0.authority == page.authority && $0.path == path }
                if expiry.map({ $0 > now }) ?? true { cookies.append(cookie) }
            }
        }
    }

    /// The `Cookie` header for a request to `url`, or nil when no cookie goes with it.
    package func header(for url: String) -> String? {
        guard let page = PageURL(url) else { return nil }
        let now = ContinuousClock.now
        let matching = cookies.withLock { cookies in
            cookies.removeAll { $0.expiry.map { $0 <= now } ?? false }
            return cookies.filter {
                $0.authority == page.authority && (page.isSecure || !$0.secure) && Self.pathMatches(page.path, $0.path)
            }
        }
        guard !matching.isEmpty else { return nil }
        return matching.enumerated().sorted {
            ($0.element.path.count, -$0.offset) > ($1.element.path.count, -$1.offset)
        }.map { "\($0.element.name)=\($0.element.value)" }.joined(separator: "; ")
    }

    /// The default path of a request path (RFC 6265 §5.1.4): up to, not including, its last `/`,
    /// or `/`.
    private static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// Path-match (RFC 6265 §5.1.4).
    private static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        requestPath == cookiePath
            || (requestPath.hasPrefix(cookiePath)
                && (cookiePath.hasSuffix("/")
                    || requestPath.dropFirst(cookiePath.count).hasPrefix("/")))
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces (RFC 6265 §5.2: WSP around names and values).
    fileprivate func trimmedSpaces() -> String {
        String(String(drop { $0 == " " }.reversed().drop { $0 == " " }).reversed())
    }
}
