public import WebAuthn

/// The large-blob array of an authenticator (CTAP 2.1 §6.10): a CBOR array of encrypted blobs,
/// followed by the first 16 bytes of its SHA-256, which the platform reads and writes whole.
///
/// ```
/// serialized  = CBOR array of entry ‖ LEFT(SHA-256(CBOR array), 16)
/// entry       = { 1: ciphertext, 2: nonce (12 bytes), 3: origSize (uint) }
/// ciphertext  = AES-256-GCM(largeBlobKey, nonce, DEFLATE(blob), AD = "blob" ‖ uint64le(origSize))
/// ```
///
/// Each credential's blob is the one entry that opens under its `largeBlobKey`; entries of other
/// credentials, and entries that do not parse, are kept as they are (§6.10.3).
public struct LargeBlobArray: Sendable, Hashable {
    /// The entries, as CBOR, in order.
    public private(set) var entries: [CBOR]

    /// The serialized array of an authenticator that has none yet: an empty CBOR array and its
    /// hash (`0x80 76be8b528d0075f7aae98d6fa57a6d3c`).
    public static let empty = LargeBlobArray(entries: [])

    private init(entries: [CBOR]) {
        self.entries = entries
    }

    /// Reads a serialized array.
    ///
    /// - Parameter serialized: the array and its 16-byte hash.
    /// - Throws: `WebAuthnError` with `malformed-encoding` when the hash does not match (as after a
    ///   torn write), or `malformed-cbor` when the array does not parse.
    public init(serialized: [UInt8]) throws(WebAuthnError) {
        guard serialized.count >= 17 else {
            throw WebAuthnError(.malformedEncoding, "a serialized large-blob array is at least 17 bytes")
        }
        let array = Array(serialized.dropLast(16))
        guard Array(SHA256Digest.hash(array).prefix(16)) == Array(serialized.suffix(16)) else {
            throw WebAuthnError(.malformedEncoding, "the large-blob array's hash does not match it")
        }
        guard let entries = try CBOR(decoding: array).arrayValue else {
            throw WebAuthnError(.malformedCBOR, "the large-blob array is not a CBOR array")
        }
        self.entries = entries
    }

    /// The array and its hash, as the authenticator keeps it.
    public var serialized: [UInt8] {
        let array = CBOR.array(entries).encoded()
        return array + SHA256Digest.hash(array).prefix(16)
    }

    /// The blob of the credential whose `largeBlobKey` is `key`: the first entry that opens under
    /// it; `nil` when none does.
    ///
    /// - Throws: `WebAuthnError` with `malformed-encoding` when an entry opens but does not
    ///   inflate to its size.
    public func blob(key: SecretKey) throws(WebAuthnError) -> [UInt8]? {
        for entry in entries {
            if let (compressed, size) = Self.open(entry, key: key) {
                return try RawDeflate.decompress(compressed, size: size)
            }
        }
        return nil
    }

    /// Stores `blob` for the credential whose `largeBlobKey` is `key`, replacing its entries.
    ///
    /// - Throws: `WebAuthnError` when it cannot be compressed or sealed.
    public mutating func set(_ blob: [UInt8], key: SecretKey) throws(WebAuthnError) {
        remove(key: key)
        let sealed = try AESGCM.seal(RawDeflate.compress(blob), using: key, authenticating: Self.context(blob.count))
        entries.append([
            1: .bytes(Array(sealed.dropFirst(12))), 2: .bytes(Array(sealed.prefix(12))), 3: CBOR(blob.count),
        ])
    }

    /// Removes the entries of the credential whose `largeBlobKey` is `key`.
    public mutating func remove(key: SecretKey) {
        entries.removeAll { Self.open($0, key: key) != nil }
    }

    /// An entry's compressed blob and original size, when it is well formed and opens under `key`.
    private static func open(_ entry: CBOR, key: SecretKey) -> ([UInt8], Int)? {
        guard let ciphertext = entry[1]?.bytesValue, let nonce = entry[2]?.bytesValue, nonce.count == 12,
            let size = entry[3]?.intValue, size >= 0,
            let compressed = try? AESGCM.open(nonce + ciphertext, using: key, authenticating: context(size))
        else {
            return nil
        }
        return (compressed, size)
    }

    /// The associated data of an entry: `"blob" ‖ uint64le(origSize)` (§6.10.3).
    private static func context(_ size: Int) -> [UInt8] {
        Array("blob".utf8) + (0..<8).map { UInt8(truncatingIfNeeded: UInt64(size) >> (8 * $0)) }
    }
}
