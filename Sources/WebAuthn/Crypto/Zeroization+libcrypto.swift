private import CCrypto

/// Overwrites memory with zeros in a way the optimiser may not remove (`OPENSSL_cleanse`), for
/// buffers that held key material (apple/swift-crypto · `Zeroization_boring.swift`).
func secureZero(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else {
        return
    }
    OPENSSL_cleanse(base, buffer.count)
}

/// Wipes an array that held key material.
func secureZero(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { secureZero($0) }
}
