import Glibc

/// A reverse proxy (a load balancer) whose `X-Forwarded-For` the tenant believes: one address or a
/// CIDR block (RFC 4632 §3.1 for IPv4, RFC 4291 §2.3 for IPv6).
///
/// ```
/// proxy = IPv4address [ "/" 0-32 ] / IPv6address [ "/" 0-128 ]   ; 127.0.0.1, 10.0.0.0/8, ::1, fd00::/8
/// ```
///
/// Behind a proxy every client arrives from the proxy's address, so the per-address attempt limit
/// (``AttemptLimits``) would lock them all out together. When the peer is a trusted proxy the
/// client's address is the rightmost `X-Forwarded-For` entry that is not a trusted proxy (each
/// proxy appends the address it was reached from, so entries left of it are whatever the client
/// sent); from any other peer the header is ignored, since a client can send any. An IPv4 address
/// matches its IPv4-mapped IPv6 form (`::ffff:127.0.0.1`) too.
///
/// **[local]** RFC 7239's `Forwarded: for=` is not read: a proxy that only appends
/// `X-Forwarded-For` (nginx's `$proxy_add_x_forwarded_for`) passes a client's own `Forwarded`
/// through untouched, and reading it would let that client pick its address.
public struct TrustedProxy: Sendable, Hashable {
    /// The block's address, 4 or 16 bytes.
    let bytes: [UInt8]
    /// How many leading bits an address shares with ``bytes`` to be in the block.
    let prefixLength: Int

    /// Parses `127.0.0.1`, `10.0.0.0/8`, `::1` or `fd00::/8`.
    ///
    /// - Parameter text: an address, or an address and a prefix length after `/`.
    /// - Throws: `invalid_configuration` for anything else.
    public init(_ text: String) throws(TenantError) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let name = "trusted proxy \(text.prefix(64))"
        guard let bytes = Self.address(parts[0]) else {
            throw TenantError(.invalidConfiguration, "\(name): not an IP address or CIDR block")
        }
        let length = parts.count == 2 ? (Self.isDecimal(parts[1]) ? Int(parts[1]) : nil) : bytes.count * 8
        guard let length, (0...bytes.count * 8).contains(length) else {
            throw TenantError(.invalidConfiguration, "\(name): the prefix length is out of range")
        }
        self.bytes = bytes
        self.prefixLength = length
    }

    /// Whether `address` is in the block.
    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(bytes, address) where remaining > 0 {
            let bits = min(remaining, 8)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            guard mine & mask == theirs & mask else { return false }
            remaining -= bits
        }
        return true
    }

    /// The client's address: `peer` unless it is in `proxies`, else the rightmost entry of
    /// `forwardedFor` (the `X-Forwarded-For` values, in order) that is not, else the leftmost entry.
    ///
    /// - Parameters:
    ///   - peer: the connection's remote address; nil when there is none (router tests).
    ///   - forwardedFor: every `X-Forwarded-For` field value, in order.
    ///   - proxies: the trusted proxies.
    /// - Returns: the address the attempt limit keys on.
    static func clientAddress(peer: String?, forwardedFor: [String], proxies: [TrustedProxy]) -> String? {
        func trusted(_ text: Substring) -> Bool {
            guard let address = address(text) else { return false }
            return proxies.contains { $0.contains(address) }
        }
        guard let peer, trusted(peer[...]) else { return peer }
        let entries = forwardedFor.flatMap { $0.split(separator: ",") }
            .map { String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
            .filter { !$0.isEmpty }
        return entries.last { !trusted($0[...]) } ?? entries.first ?? peer
    }

    /// The bytes of an IPv4 or IPv6 address (an IPv4-mapped IPv6 address as IPv4, a zone ID
    /// ignored); nil for anything else. The C library's `inet_pton` parses (POSIX: IPv4 in
    /// dotted-decimal `d.d.d.d` only, IPv6 in the text forms of RFC 4291 §2.2).
    static func address(_ text: Substring) -> [UInt8]? {
        if !text.contains(":") { return parsed(String(text), family: AF_INET, count: 4) }
        let unzoned = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard let bytes = parsed(String(unzoned), family: AF_INET6, count: 16) else { return nil }
        return bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] ? Array(bytes.suffix(4)) : bytes
    }

    /// `inet_pton`'s `count` bytes of `text` in `family`; nil when it is not an address of it.
    private static func parsed(_ text: String, family: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        return bytes.withUnsafeMutableBytes { inet_pton(family, text, $0.baseAddress) } == 1 ? bytes : nil
    }

    /// Whether `text` is ASCII digits only (no sign, which `Int.init` would take).
    private static func isDecimal(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
