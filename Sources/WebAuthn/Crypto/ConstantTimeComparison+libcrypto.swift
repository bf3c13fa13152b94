private import CCrypto

/// Whether two byte strings are equal, in time that depends on their lengths only
/// (`CRYPTO_memcmp`), for comparing authentication codes without leaking how many leading bytes
/// of a forgery were right.
///
/// Lengths are public: strings of different lengths are unequal at once.
package func constantTimeEquals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
    guard lhs.count == rhs.count else {
        return false
    }
    return withBorrowedBytes(lhs) { lhs in
        withBorrowedBytes(rhs) { rhs in
            CRYPTO_memcmp(lhs.baseAddress, rhs.baseAddress, lhs.count) == 0
        }
    }
}
