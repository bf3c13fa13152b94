/// The per-signature secrets `k` of deterministic ECDSA (RFC 6979 §3.2): HMAC-DRBG with
/// HMAC-SHA-256, keyed by the private scalar and the message digest, so the same key and
/// message always give the same `k` and so the same signature.
///
/// ```
/// V = 0x01 ‖ … ‖ 0x01 (32 bytes)          K = 0x00 ‖ … ‖ 0x00 (32 bytes)
/// K = HMAC_K(V ‖ 0x00 ‖ int2octets(x) ‖ bits2octets(h1))     V = HMAC_K(V)
/// K = HMAC_K(V ‖ 0x01 ‖ int2octets(x) ‖ bits2octets(h1))     V = HMAC_K(V)
/// loop: T = empty; while len(T) < qlen: V = HMAC_K(V); T = T ‖ V
///       k = bits2int(T); if 1 ≤ k < q: yield k
///       K = HMAC_K(V ‖ 0x00); V = HMAC_K(V)
/// ```
///
/// The HMAC is HMAC-SHA-256 whatever the curve: right for ES256 (P-256 with SHA-256), the only
/// ECDSA algorithm this library signs with. ``next()`` yields the candidates in order; a signer
/// takes the next one when `r` or `s` comes out 0 (§3.4), which for P-256 has probability
/// about 2⁻²⁵⁶.
///
/// The state is secret (it is derived from the private key): it is wiped when the object goes,
/// and every `k` handed out is the caller's to wipe.
package final class DeterministicNonces {
    /// The group order `q`, big-endian, `rlen` bytes.
    private let order: [UInt8]
    /// `qlen`, the bit length of `q`.
    private let orderBits: Int
    private var key: [UInt8]
    private var value: [UInt8]
    private var started = false

    /// Seeds the generator (RFC 6979 §3.2 steps a–g).
    ///
    /// - Parameters:
    ///   - privateKey: `int2octets(x)`: the private scalar, big-endian, as many bytes as `order`.
    ///   - digest: `h1`, the message's hash.
    ///   - order: the group order `q`, big-endian, without leading zero bytes.
    package init(privateKey: some Collection<UInt8>, digest: [UInt8], order: [UInt8]) {
        precondition(order.first.map { $0 != 0 } ?? false, "the order has no leading zero byte")
        precondition(privateKey.count == order.count, "int2octets(x) is rlen bytes")
        self.order = order
        orderBits = order.count * 8 - order[0].leadingZeroBitCount
        key = [UInt8](repeating: 0x00, count: SHA256Digest.digestLength)
        value = [UInt8](repeating: 0x01, count: SHA256Digest.digestLength)
        var reducedDigest = Self.bits2octets(digest, order: order, orderBits: orderBits)
        defer { secureZero(&reducedDigest) }
        for separator: UInt8 in [0x00, 0x01] {
            var input = value + [separator]
            input.append(contentsOf: privateKey)
            input += reducedDigest
            rekey(HMACSHA256.authenticationCode(for: input, key: key))
            secureZero(&input)
            revalue(HMACSHA256.authenticationCode(for: value, key: key))
        }
    }

    deinit {
        secureZero(&key)
        secureZero(&value)
    }

    /// The next candidate `k` (RFC 6979 §3.2 step h): in `[1, q)`, big-endian, as many bytes as
    /// the order. The caller wipes it.
    package func next() -> [UInt8] {
        if started {
            rekey(HMACSHA256.authenticationCode(for: value + [0x00], key: key))
            revalue(HMACSHA256.authenticationCode(for: value, key: key))
        }
        started = true
        while true {
            var bits: [UInt8] = []
            while bits.count * 8 < orderBits {
                revalue(HMACSHA256.authenticationCode(for: value, key: key))
                bits += value
            }
            var candidate = Self.bits2int(bits, orderBits: orderBits, length: order.count)
            secureZero(&bits)
            if candidate.contains(where: { $0 != 0 }), Self.compare(candidate, order) < 0 {
                return candidate
            }
            secureZero(&candidate)
            rekey(HMACSHA256.authenticationCode(for: value + [0x00], key: key))
            revalue(HMACSHA256.authenticationCode(for: value, key: key))
        }
    }

    private func rekey(_ new: [UInt8]) {
        secureZero(&key)
        key = new
    }

    private func revalue(_ new: [UInt8]) {
        secureZero(&value)
        value = new
    }

    // MARK: RFC 6979 §2.3

    /// `bits2int` (§2.3.2): the leftmost `qlen` bits of `bits` as an integer, big-endian in
    /// `length` bytes.
    static func bits2int(_ bits: [UInt8], orderBits: Int, length: Int) -> [UInt8] {
        var shifted = bits
        let excess = bits.count * 8 - orderBits
        if excess > 0 {
            shifted.removeLast(excess / 8)
            let shift = excess % 8
            if shift > 0 {
                var carry: UInt8 = 0
                for index in shifted.indices {
                    let byte = shifted[index]
                    shifted[index] = byte >> shift | carry
                    carry = byte << (8 - shift)
                }
            }
        }
        if shifted.count < length {
            shifted.insert(contentsOf: [UInt8](repeating: 0, count: length - shifted.count), at: 0)
        }
        return Array(shifted.suffix(length))
    }

    /// `bits2octets` (§2.3.4): `bits2int(h1) mod q`, in `rlen` bytes. `bits2int` is below
    /// `2^qlen < 2q`, so one subtraction reduces it.
    static func bits2octets(_ digest: [UInt8], order: [UInt8], orderBits: Int) -> [UInt8] {
        var integer = bits2int(digest, orderBits: orderBits, length: order.count)
        if compare(integer, order) >= 0 {
            var borrow = 0
            for index in integer.indices.reversed() {
                let difference = Int(integer[index]) - Int(order[index]) - borrow
                integer[index] = UInt8(truncatingIfNeeded: difference)
                borrow = difference < 0 ? 1 : 0
            }
        }
        return integer
    }

    /// Compares two big-endian integers of the same length: negative, zero or positive.
    static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        for (left, right) in zip(lhs, rhs) where left != right {
            return left < right ? -1 : 1
        }
        return 0
    }
}
