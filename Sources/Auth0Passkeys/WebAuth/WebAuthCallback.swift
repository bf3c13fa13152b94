import WebAuthn

/// The parameters of the URL the tenant redirected to (RFC 6749 §4.1.2, §4.1.2.1): the query's
/// and the fragment's members merged, the fragment's winning, as Auth0.swift reads them
/// (spec §14.2).
package struct WebAuthCallback: Sendable {
    package let parameters: [String: String]

    /// Reads `url` if it is at `redirectURL` (the same text before its query or fragment).
    ///
    /// - Returns: nil when `url` is somewhere else.
    package init?(_ url: String, redirectURL: String) {
        let base = url.prefix { $0 != "?" && $0 != "#" }
        let expected = redirectURL.prefix { $0 != "?" && $0 != "#" }
        guard base == expected else { return nil }
        let rest = url.dropFirst(base.count)
        let query = rest.hasPrefix("?") ? rest.dropFirst().prefix { $0 != "#" } : ""
        let fragment = rest.firstIndex(of: "#").map { rest[rest.index(after: $0)...] } ?? ""
        var parameters: [String: String] = [:]
        for part in [query, fragment] {
            for pair in part.split(separator: "&") {
                let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (text: Substring) in PercentEncoding.decode(String(text).replacing("+", with: " ")) }
                parameters[decode(nameAndValue[0])] = nameAndValue.count > 1 ? decode(nameAndValue[1]) : ""
            }
        }
        self.parameters = parameters
    }

    package subscript(_ name: String) -> String? { parameters[name] }
}
