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
