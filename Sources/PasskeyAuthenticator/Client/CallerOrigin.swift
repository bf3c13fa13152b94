import WebAuthn

/// The checks a client makes on the caller's origin and the RP ID it asks for, before any
/// authenticator is involved (WebAuthn L3 §5.1.3 steps 5–8, §5.1.4 steps 5–6).
enum CallerOrigin {
    /// The RP ID a ceremony runs under: the one asked for, or the origin's host.
    ///
    /// The origin must be a secure context: `https`, or `http` on `localhost` (and its
    /// subdomains) or a loopback address (W3C Secure Contexts §3.2). The RP ID must equal the
    /// origin's host or be a registrable domain suffix of it that is not a public suffix; an IP
    /// address matches only itself (HTML "is a registrable domain suffix of or is equal to"; public
    /// suffixes from libpsl). Otherwise, with a `relatedOrigins` fetcher, the RP ID's
    /// `/.well-known/webauthn` document may list the origin (WebAuthn L3 §5.1.3 step 8.2, §5.1.4.1
    /// step 7.2, §5.11.1); only an RP ID that is a domain name, not an IP address or a public
    /// suffix, is looked up.
    ///
    /// - Throws: `SecurityError` for either rule, or when the document does not list the origin.
    static func rpID(_ requested: String?, for origin: WebOrigin, relatedOrigins: RelatedOriginsFetcher?)
        async throws(WebAuthnClientError) -> String
    {
        guard isPotentiallyTrustworthy(origin) else {
            throw WebAuthnClientError(
                .security, "\(origin) is not a secure context: use https, or http on localhost or a loopback address")
        }
        guard let requested else {
            return origin.host
        }
        let rpID = requested.lowercased()
        if origin.mayUse(rpID: requested) {
            return rpID
        }
        guard let relatedOrigins, isDomainName(rpID), !PublicSuffixList.isPublicSuffix(rpID) else {
            throw WebAuthnClientError(
                .security, "the RP ID \"\(requested)\" is neither \(origin)'s host nor a registrable suffix of it")
        }
        try await RelatedOrigins.validate(origin, rpID: rpID, fetcher: relatedOrigins)
        return rpID
    }

    /// The RP ID when the origin may claim it by itself (a secure context asking for its host or a
    /// registrable suffix of it), as ``rpID(_:for:relatedOrigins:)`` answers then; `nil` when that
    /// would throw or fetch related origins: for a ceremony that answers without suspending.
    static func ownRPID(_ requested: String?, for origin: WebOrigin) -> String? {
        guard isPotentiallyTrustworthy(origin) else {
            return nil
        }
        guard let requested else {
            return origin.host
        }
        if requested == origin.host, isLowercaseWithoutEmptyLabels(requested) {
            return requested  // what mayUse(rpID:) says of its own host, without splitting it
        }
        return origin.mayUse(rpID: requested) ? requested.lowercased() : nil
    }

    /// Whether `name` has no upper-case ASCII letter and no empty label.
    private static func isLowercaseWithoutEmptyLabels(_ name: String) -> Bool {
        var previous = UInt8(ascii: ".")
        for byte in name.utf8 {
            guard !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte),
                byte != UInt8(ascii: ".") || previous != UInt8(ascii: ".")
            else {
                return false
            }
            previous = byte
        }
        return previous != UInt8(ascii: ".")
    }

    /// Whether `name` is a domain name in ASCII (letters, digits and hyphens in non-empty labels,
    /// at least two of them) and not an IPv4 address: what may go into a URL's host unescaped.
    private static func isDomainName(_ name: String) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && !labels.allSatisfy { $0.allSatisfy(\.isNumber) }
            && labels.allSatisfy { label in
                !label.isEmpty && label.utf8.allSatisfy { $0 == UInt8(ascii: "-") || $0.isASCIIAlphanumeric }
            }
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

extension UInt8 {
    /// `a`–`z`, `A`–`Z` or `0`–`9`.
    fileprivate var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
