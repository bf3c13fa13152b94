/// Reads a byte string front to back, throwing on truncation.
///
/// Fixed-layout structures (authenticator data, WebAuthn L3 §6.1) are read through this reader,
/// never through offset literals, so a short input is always a typed error with its position.
package struct ByteReader {
    private var remaining: ArraySlice<UInt8>
    private let start: Int
    /// What the reader is reading, for error messages ("authenticator data").
    private let subject: String
    private let code: WebAuthnError.Code

    /// Creates a reader over `bytes`; errors name `subject` and use `code`.
    package init(_ bytes: ArraySlice<UInt8>, subject: String, code: WebAuthnError.Code) {
        self.remaining = bytes
        self.start = bytes.startIndex
        self.subject = subject
        self.code = code
    }

    /// How many bytes have been read so far.
    package var offset: Int { remaining.startIndex - start }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { remaining.isEmpty }

    /// The bytes not read yet, without consuming them.
    package var rest: ArraySlice<UInt8> { remaining }

    /// Reads exactly `count` bytes.
    ///
    /// - Throws: `WebAuthnError` with the reader's code when fewer than `count` bytes remain.
    package mutating func read(_ count: Int, _ what: String) throws(WebAuthnError) -> ArraySlice<UInt8> {
        guard count >= 0, remaining.count >= count else {
            throw WebAuthnError(
                code, "\(subject) ends before its \(what) (\(count) bytes needed, \(remaining.count) left)",
                offset: offset)
        }
        let bytes = remaining.prefix(count)
        remaining = remaining.dropFirst(count)
        return bytes
    }

    /// Reads one byte.
    package mutating func readUInt8(_ what: String) throws(WebAuthnError) -> UInt8 {
        try read(1, what).first!  // read(1) returned exactly one byte
    }

    /// Reads a big-endian 16-bit integer.
    package mutating func readUInt16(_ what: String) throws(WebAuthnError) -> UInt16 {
        try read(2, what).reduce(0) { $0 << 8 | UInt16($1) }
    }

    /// Reads a big-endian 32-bit integer.
    package mutating func readUInt32(_ what: String) throws(WebAuthnError) -> UInt32 {
        try read(4, what).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Skips `count` bytes that were already read by another decoder.
    package mutating func skip(_ count: Int, _ what: String) throws(WebAuthnError) {
        _ = try read(count, what)
    }
}
