private import CCrypto

/// Overwrites memory with zeros in a way the optimiser may not remove (`OPENSSL_cleanse`), for
/// buffers that held key material (apple/swift-crypto · `Zeroization_boring.swift`).
package func secureZero(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else {
        return
    }
    OPENSSL_cleanse(base, buffer.count)
}

/// Wipes an array that held key material; `package` so the credential store can wipe what it opens.
package func secureZero(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { secureZero($0) }
}
