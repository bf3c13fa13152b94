import CZlib
import WebAuthn

/// Raw DEFLATE (RFC 1951, no zlib or gzip wrapper) through zlib, as CTAP 2.1 §6.10.3 compresses
/// large blobs.
enum RawDeflate {
    /// Compresses `bytes`.
    ///
    /// - Throws: `WebAuthnError` with `crypto-failure` when zlib fails (out of memory).
    static func compress(_ bytes: [UInt8]) throws(WebAuthnError) -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init_raw(&stream, Z_BEST_COMPRESSION) == Z_OK else {
            throw WebAuthnError(.cryptoFailure, "zlib cannot start compressing")
        }
        defer { deflateEnd(&stream) }
        let capacity = Int(deflateBound(&stream, uLong(bytes.count)))
        let (status, output) = run(&stream, bytes, capacity: capacity) { deflate(&$0, Z_FINISH) }
        guard status == Z_STREAM_END else {
            throw WebAuthnError(.cryptoFailure, "zlib could not compress (status \(status))")
        }
        return output
    }

    /// Decompresses `bytes`, which must inflate to exactly `size` bytes.
    ///
    /// - Parameters:
    ///   - bytes: raw DEFLATE data.
    ///   - size: the size it inflates to (`origSize` of a large-blob entry).
    /// - Throws: `WebAuthnError` with `malformed-encoding` when the data is not DEFLATE, is cut
    ///   short, or inflates to another size.
    static func decompress(_ bytes: [UInt8], size: Int) throws(WebAuthnError) -> [UInt8] {
        var stream = z_stream()
        guard czlib_inflate_init_raw(&stream) == Z_OK else {
            throw WebAuthnError(.cryptoFailure, "zlib cannot start decompressing")
        }
        defer { inflateEnd(&stream) }
        let (status, output) = run(&stream, bytes, capacity: size + 1) { inflate(&$0, Z_FINISH) }
        guard status == Z_STREAM_END, output.count == size else {
            throw WebAuthnError(
                .malformedEncoding, "a large blob does not inflate to its \(size) bytes (zlib status \(status))")
        }
        return output
    }

    /// Runs one zlib call over all of `input` into a buffer of `capacity` bytes.
    private static func run(
        _ stream: inout z_stream, _ input: [UInt8], capacity: Int, _ call: (inout z_stream) -> Int32
    ) -> (Int32, [UInt8]) {
        var input = input
        var output = [UInt8](repeating: 0, count: capacity)
        let status = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return call(&stream)
            }
        }
        return (status, Array(output.prefix(Int(stream.total_out))))
    }
}
