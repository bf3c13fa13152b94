import WebAuthn

/// The login page's own origin, `<scheme>://<Host>`, and whether its ceremonies are accepted
/// from it. **[local]**
///
/// The page is served by the tenant, so its origin is wherever the browser reached the tenant:
/// https when the tenant serves TLS, else http. Its ceremonies are verified against the tenant's
/// origins plus this one, accepted only when the host is the RP ID or a subdomain of it (the
/// browser would refuse the RP ID otherwise, WebAuthn L3 §5.1.3 step 8) and, for http, only on
/// `localhost` or a loopback address (a potentially trustworthy origin, Secure Contexts §3.1).
struct PageOrigin: Sendable, Hashable {
    /// The serialized origin (`http://localhost:8080`).
    let text: String
    /// Whether ceremonies from it are verified as the tenant's.
    let isAccepted: Bool

    /// The origin of a page reached at `host` (the `Host` header), over TLS or not; nil when the
    /// header is missing or not a host.
    init?(host: String?, secure: Bool, relyingPartyID: String) {
        let scheme = secure ? "https" : "http"
        guard let host, var origin = try? WebOrigin("\(scheme)://\(host)") else { return nil }
        // A default port is not part of the serialized origin (RFC 6454 §6.2): `Host: localhost:443`.
        if origin.port == (secure ? 443 : 80), let bare = try? WebOrigin("\(scheme)://\(Self.bracketed(origin.host))") {
            origin = bare
        }
        text = origin.description
        let loopback =
            origin.host == "localhost" || origin.host.hasSuffix(".localhost") || origin.host == "::1"
            || RegisteredURL.isLoopback(origin.host)
        isAccepted = origin.isWithin(rpID: relyingPartyID) && (secure || loopback)
    }

    /// An IPv6 host in brackets, as a URL writes it.
    private static func bracketed(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}

extension TenantConfiguration {
    /// The relying-party policy of a login page ceremony: ``relyingParty`` with the page's
    /// origin added when it is accepted.
    func relyingParty(page: PageOrigin?) -> RelyingParty {
        var policy = relyingParty
        if let page, page.isAccepted, !policy.origins.contains(page.text) {
            policy.origins.append(page.text)
        }
        return policy
    }
}
