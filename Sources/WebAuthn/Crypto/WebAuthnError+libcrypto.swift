private import CCrypto

// The one place where libcrypto failures become `WebAuthnError`s, with OpenSSL's own text
// (`ERR_get_error` + `ERR_error_string_n`), as apple/swift-nio's `System.swift` does for errno.

/// Throws unless `result` is 1, OpenSSL's success value for most calls.
///
/// - Parameters:
///   - result: what the call returned.
///   - code: the error code to throw.
///   - what: the operation, for the reason ("EVP_DigestSign").
func check(_ result: Int32, _ code: WebAuthnError.Code = .cryptoFailure, _ what: @autoclosure () -> String)
    throws(WebAuthnError)
{
    guard result == 1 else {
        throw libcryptoError(code, what())
    }
}

/// Returns the pointer a call produced, or throws when it is `nil`.
func check<Pointer>(_ pointer: Pointer?, _ code: WebAuthnError.Code = .cryptoFailure, _ what: @autoclosure () -> String)
    throws(WebAuthnError) -> Pointer
{
    guard let pointer else {
        throw libcryptoError(code, what())
    }
    return pointer
}

/// An error carrying the oldest entry of OpenSSL's error queue, which is then cleared so a later
/// call on this thread does not report a stale reason.
func libcryptoError(_ code: WebAuthnError.Code, _ what: String) -> WebAuthnError {
    let packed = ERR_get_error()
    discardLibcryptoErrors()
    guard packed != 0 else {
        return WebAuthnError(code, "\(what) failed")
    }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(packed, &buffer, buffer.count)
    let text = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return WebAuthnError(code, "\(what) failed: \(text)")
}

/// Empties OpenSSL's error queue after a failure that is an answer rather than an error (a
/// signature that does not verify).
func discardLibcryptoErrors() {
    ERR_clear_error()
}

/// The DER an OpenSSL `i2d_…` function writes, by its two-call protocol: asked first for the
/// length (a `nil` output), then to write into a buffer of that length (`i2d_X509(3)`).
///
/// - Parameters:
///   - code: the error code to throw when either call fails.
///   - what: the function, for the reason ("i2d_PUBKEY").
///   - encode: calls the `i2d_…` function with the output cursor it is given.
/// - Returns: the DER; a buffer that came out short is wiped before the error is thrown, as it may
///   hold part of a private key.
func derEncoding(
    _ code: WebAuthnError.Code = .cryptoFailure, _ what: @autoclosure () -> String,
    _ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
) throws(WebAuthnError) -> [UInt8] {
    let length = encode(nil)
    guard length > 0 else {
        throw libcryptoError(code, what())
    }
    var der = [UInt8](repeating: 0, count: Int(length))
    let written = der.withUnsafeMutableBufferPointer { buffer in
        var cursor = buffer.baseAddress
        return encode(&cursor)
    }
    guard written == length else {
        secureZero(&der)
        throw libcryptoError(code, what())
    }
    return der
}
