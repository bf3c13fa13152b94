/// A web origin as WebAuthn serializes it in client data (`scheme://host[:port]`, RFC 6454 §6.2).
///
/// Only the tuple origins WebAuthn deals with are modelled: a scheme, a host (a domain, an IPv4
/// address or a bracketed IPv6 address) and an optional port. Native app origins such as
/// `android:apk-key-hash:…` are not tuple origins and do not parse.
public struct WebOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The scheme, lower-case (`https`).
    public let scheme: String
    /// The host, lower-case, without brackets for IPv6.
    public let host: String
    /// The port, when the origin names one.
    public let port: Int?

    /// Parses a serialized origin.
    ///
    /// - Throws: `WebAuthnError.Code.malformedEncoding` for text that is not `scheme://host[:port]`
    ///   (a path, query, fragment or user info is not part of an origin).
    public init(_ text: String) throws(WebAuthnError) {
        let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isLetter || "+-.".contains($0) }) else {
            throw WebAuthnError(.malformedEncoding, "\"\(text)\" is not an origin (scheme://host[:port])")
        }
        var authority = Substring(parts[1].lowercased())
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ ".contains($0) }) else {
            throw WebAuthnError(.malformedEncoding, "\"\(text)\" is not an origin: only scheme://host[:port]")
        }
        var port: Int?
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            guard let value = Int(authority[authority.index(after: colon)...]), (0...65535).contains(value) else {
                throw WebAuthnError(.malformedEncoding, "\"\(text)\" has an invalid port")
            }
            port = value
            authority = authority[..<colon]
        }
        if authority.hasPrefix("[") {
            guard authority.hasSuffix("]"), authority.count > 2 else {
                throw WebAuthnError(.malformedEncoding, "\"\(text)\" has an unterminated IPv6 address")
            }
            authority = authority.dropFirst().dropLast()
        }
        guard !authority.isEmpty else {
            throw WebAuthnError(.malformedEncoding, "\"\(text)\" has no host")
        }
        self.scheme = parts[0].lowercased()
        self.host = String(authority)
        self.port = port
    }

    /// Whether the host is an IP address rather than a domain.
    public var hostIsIPAddress: Bool {
        Self.isIPAddress(host)
    }

    /// Whether `rpID` is this origin's host or a parent domain of it on a label boundary
    /// (WebAuthn L3 §5.1.3: "a registrable domain suffix of or is equal to"); IP hosts match only
    /// themselves. Public suffixes are not looked at: this is the relying party's check of a
    /// response, where the RP ID is its own; a client deciding what an origin may claim uses
    /// ``mayUse(rpID:)``.
    public func isWithin(rpID: String) -> Bool {
        let rpID = rpID.lowercased()
        if host == rpID { return true }
        return !hostIsIPAddress && host.hasSuffix("." + rpID)
    }

    /// Whether a page of this origin may claim `rpID` (WebAuthn L3 §5.1.3 step 8, §5.1.4.1 step 7;
    /// HTML "is a registrable domain suffix of or is equal to").
    ///
    /// The RP ID may be the host itself, or a parent domain of it on a label boundary that is
    /// not a public suffix and not above the host's registrable domain:
    ///
    /// ```
    /// https://login.example.com   example.com, login.example.com      yes
    ///                             com, xample.com, example.org        no
    /// https://foo.github.io       github.io, io                       no
    /// http://localhost:8080       localhost                           yes
    /// https://127.0.0.1           127.0.0.1 only (IP addresses match only themselves)
    /// ```
    ///
    /// Comparison ignores case. An empty RP ID, or one with an empty label (a leading, trailing
    /// or doubled dot), is refused even when it equals the host, so `example.com.` never stands
    /// in for `example.com`. Whether the origin itself may use WebAuthn (https, or http on
    /// localhost) is a separate check.
    ///
    /// - Parameter rpID: the RP ID the page asks for (`rp.id`, `rpId`).
    /// - Returns: whether the RP ID is allowed for this origin.
    public func mayUse(rpID: String) -> Bool {
        let rpID = rpID.lowercased()
        guard !rpID.isEmpty, !rpID.split(separator: ".", omittingEmptySubsequences: false).contains("") else {
            return false
        }
        if rpID == host {
            return true
        }
        guard !hostIsIPAddress, !Self.isIPAddress(rpID), host.hasSuffix("." + rpID),
            !PublicSuffixList.isPublicSuffix(rpID),
            let registrable = PublicSuffixList.registrableDomain(host)
        else {
            return false
        }
        return rpID == registrable || rpID.hasSuffix("." + registrable)
    }

    /// Whether a host is an IPv6 address (it has colons) or all-numeric dotted labels (IPv4).
    private static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }

    public var description: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }
}
