import WebAuthn

/// The checks a client makes on the caller's origin and the RP ID it asks for, before any
/// authenticator is involved (WebAuthn L3 §5.1.3 steps 5–8, §5.1.4 steps 5–6).
enum CallerOrigin {
    /// The RP ID a ceremony runs under: the one asked for, or the origin's host.
    ///
    /// The origin must be a secure context: `https`, or `http` on `localhost` (and its
    /// subdomains) or a loopback address (W3C Secure Contexts §3.2). The RP ID must equal the
    /// origin's host or be a registrable domain suffix of it that is not a public suffix; an IP
    /// address matches only itself (HTML "is a registrable domain suffix of or is equal to").
    ///
    /// - Throws: `SecurityError` for either rule.
    static func rpID(_ requested: String?, for origin: WebOrigin) throws(WebAuthnClientError) -> String {
        guard isPotentiallyTrustworthy(origin) else {
            throw WebAuthnClientError(
                .security, "\(origin) is not a secure context: use https, or http on localhost or a loopback address")
        }
        guard let requested else {
            return origin.host
        }
        guard origin.isWithin(rpID: requested) else {
            throw WebAuthnClientError(
                .security, "the RP ID \"\(requested)\" is neither \(origin)'s host nor a registrable suffix of it")
        }
        return requested.lowercased()
    }

    private static func isPotentiallyTrustworthy(_ origin: WebOrigin) -> Bool {
        switch origin.scheme {
        case "https":
            return true
        case "http":
            let host = origin.host
            return host == "localhost" || host.hasSuffix(".localhost") || host == "::1"
                || host.hasPrefix("127.")
                    && origin.hostIsIPAddress
        default:
            return false
        }
    }
}
