/// Lends the bytes of any collection to C as one contiguous buffer whose base address is never
/// `nil` (OpenSSL rejects a null pointer even with a zero length in some calls).
///
/// The closure may throw a typed error; the buffer must not escape it.
func withBorrowedBytes<Result, Failure: Error>(
    _ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
) throws(Failure) -> Result {
    let array = bytes as? [UInt8] ?? Array(bytes)
    let outcome: Swift.Result<Result, Failure> = array.withUnsafeBufferPointer { buffer in
        if buffer.baseAddress == nil {
            let empty = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
            defer { empty.deallocate() }
            return Swift.Result { () throws(Failure) -> Result in try body(UnsafeBufferPointer(start: empty, count: 0))
            }
        }
        return Swift.Result { () throws(Failure) -> Result in try body(buffer) }
    }
    return try outcome.get()
}

/// Like ``withBorrowedBytes(_:_:)``, for secret input (keys, passwords): the bytes are copied into
/// a private buffer that is wiped when the closure returns.
func withSecretBytes<Result, Failure: Error>(
    _ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
) throws(Failure) -> Result {
    let count = bytes.count
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count, 1))
    defer {
        secureZero(UnsafeMutableRawBufferPointer(copy))
        copy.deallocate()
    }
    _ = copy.initialize(fromContentsOf: bytes)
    return try body(UnsafeBufferPointer(rebasing: copy.prefix(count)))
}
