/// A 256-bit symmetric key that wipes itself and never prints.
///
/// The bytes live in one heap buffer owned by a reference-counted box, so copies of the key share
/// it, and the last copy to go away overwrites it (`OPENSSL_cleanse`) before freeing it.
/// `description`, `debugDescription` and the mirror show nothing (STYLE §5).
public struct SecretKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key length, in bytes.
    package static let byteCount = 32

    private let storage: Storage

    /// Takes a key from its bytes.
    ///
    /// - Parameter bytes: exactly 32 bytes.
    /// - Throws: `WebAuthnError` with `invalid-key` for any other length.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count == Self.byteCount else {
            throw WebAuthnError(.invalidKey, "a symmetric key is \(Self.byteCount) bytes, not \(bytes.count)")
        }
        storage = Storage(copying: bytes)
    }

    /// Takes a key from a buffer of exactly ``byteCount`` bytes, which the caller wipes.
    init(copying buffer: UnsafeBufferPointer<UInt8>) {
        precondition(buffer.count == Self.byteCount)
        storage = Storage(copying: buffer)
    }

    /// A fresh random key from OpenSSL's DRBG.
    ///
    /// - Returns: a new key.
    public static func random() -> SecretKey {
        var bytes = SecureRandom.bytes(byteCount)
        defer { secureZero(&bytes) }
        return SecretKey(storage: Storage(copying: bytes))
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// Lends the key's bytes for the duration of `body`.
    ///
    /// - Parameter body: reads the 32 bytes; the pointer must not escape.
    /// - Returns: what `body` returns.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(storage.bytes))
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

extension SecretKey {
    /// The key's one heap buffer, wiped on deinit.
    ///
    /// `@unchecked Sendable`: the buffer is written once in `init` and only read afterwards.
    private final class Storage: @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer

        init(copying source: some Collection<UInt8>) {
            bytes = .allocate(byteCount: SecretKey.byteCount, alignment: 1)
            bytes.copyBytes(from: source)
        }

        deinit {
            secureZero(bytes)
            bytes.deallocate()
        }
    }
}
