/// The base URL of an Auth0 tenant, built from a domain as Auth0's SDK builds it, or given
/// explicitly for a local tenant (spec §0.1).
package enum BaseURL {
    /// `https://` in front unless the text already begins with `https`, and a final `/`.
    static func fromDomain(_ domain: String) -> String {
        let url = domain.hasPrefix("https") ? domain : "https://" + domain
        return url.hasSuffix("/") ? url : url + "/"
    }

    /// An explicit base URL: `https://host[:port][/path]`, or `http://` to a loopback host only
    /// (`localhost`, `127.0.0.0/8`, `[::1]`); with a final `/`.
    ///
    /// - Returns: the URL, or `nil` with the reason it is refused.
    package static func validated(_ text: String) -> Result<String, BaseURLError> {
        let parts = text.split(separator: "://", maxSplits: 1)
        guard parts.count == 2, let scheme = parts.first?.lowercased(), scheme == "https" || scheme == "http" else {
            return .failure(
                BaseURLError(reason: "\(text): the base URL must start with https:// (or http:// to a loopback host)"))
        }
        let authority = parts[1].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.hasPrefix("[") ? authority.prefix { $0 != "]" } + "]" : authority.prefix { $0 != ":" }
        guard !host.isEmpty else {
            return .failure(BaseURLError(reason: "\(text): the base URL has no host"))
        }
        if scheme == "http" && !isLoopback(host.lowercased()) {
            return .failure(BaseURLError(reason: "\(text): plain http is allowed only to a loopback host; use https"))
        }
        return .success(text.hasSuffix("/") ? text : text + "/")
    }

    private static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

/// A base URL that a client refuses.
package struct BaseURLError: Error {
    package let reason: String
}
