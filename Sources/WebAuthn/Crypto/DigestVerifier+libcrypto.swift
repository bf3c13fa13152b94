private import CCrypto
import Synchronization

/// One key's verification of signatures on the hash of a message for one ECDSA or RSA
/// algorithm, prepared once: the message is hashed with the algorithm's digest (fetched once for
/// the process), and the digest verified with `EVP_PKEY_verify` on an `EVP_PKEY_CTX` that
/// `EVP_PKEY_verify_init` and the algorithm's parameters (the signature digest; for RSA, the
/// padding of RFC 8812 or RFC 8230) prepared for the key. EVP_PKEY_verify(3): `EVP_PKEY_verify`
/// "can be called more than once on the same context if several operations are performed using
/// the same parameters", so a context is made once and used for every verification after, where
/// `EVP_DigestVerify` needs a new (copied) digest context each time.
///
/// EdDSA has no such form (RFC 8032 signs the message itself): ``init(key:algorithm:)`` gives
/// `nil` for it, and the key verifies with its digest context as before.
///
/// `@unchecked Sendable`: an `EVP_PKEY_CTX` serves one operation at a time, so each call takes an
/// idle context from the pool (or makes one) under the mutex and gives it back after; the key
/// (`EVP_PKEY`, up-referenced here) is only read.
final class DigestVerifier: @unchecked Sendable {
    /// How many idle contexts are kept; more calls at once make contexts that are freed after.
    private static let idleLimit = 4

    private let key: OpaquePointer
    private let algorithm: COSEAlgorithm
    private let digest: OpaquePointer
    /// The digest's length in bytes.
    private let digestLength: Int
    private let idle = Mutex<[Context]>([])

    /// An `EVP_PKEY_CTX *` moving between the pool and the one call that uses it.
    private struct Context: @unchecked Sendable {  // used by one call at a time, never shared
        let pointer: OpaquePointer
    }

    /// Prepares `key` to verify `algorithm`'s signatures, and makes the first context, so an
    /// algorithm the key cannot verify fails here.
    ///
    /// - Returns: `nil` for EdDSA, which has no prehashed form.
    /// - Throws: `WebAuthnError` with `invalid-key` when OpenSSL refuses the key for the algorithm.
    init?(key: EVPKey, algorithm: COSEAlgorithm) throws(WebAuthnError) {
        guard let digest = FetchedDigest.digest(algorithm) else {
            return nil
        }
        guard EVP_PKEY_up_ref(key.pointer) == 1 else {
            throw libcryptoError(.cryptoFailure, "EVP_PKEY_up_ref")
        }
        self.key = key.pointer
        self.algorithm = algorithm
        self.digest = digest
        self.digestLength = Int(EVP_MD_get_size(digest))
        let first = Context(pointer: try newContext())
        idle.withLock { $0.append(first) }
    }

    deinit {
        idle.withLock { contexts in
            for context in contexts {
                EVP_PKEY_CTX_free(context.pointer)
            }
        }
        EVP_PKEY_free(key)
    }

    /// Whether `signature` is the algorithm's signature of `message ‖ rest` (WebAuthn L3 §7.2 step
    /// 20 signs `authenticatorData ‖ hash`: the two are hashed one after the other, not joined).
    /// A signature OpenSSL cannot parse (bad DER) is not valid.
    ///
    /// - Throws: `WebAuthnError` with `crypto-failure` when OpenSSL cannot hash or make a context.
    func isValidSignature(
        _ signature: UnsafeBufferPointer<UInt8>, for message: UnsafeBufferPointer<UInt8>,
        followedBy rest: UnsafeBufferPointer<UInt8>
    ) throws(WebAuthnError) -> Bool {
        let context = try takeContext()
        defer { giveBack(context) }
        // EVP_MAX_MD_SIZE (64) bytes on the stack.
        var hash: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        var hashed = false
        let result = withUnsafeMutableBytes(of: &hash) { hash -> Int32 in
            let output = hash.baseAddress!.assumingMemoryBound(to: UInt8.self)  // a tuple's bytes have an address
            hashed = self.hash(message, rest, into: output)
            guard hashed else {
                return 0
            }
            return EVP_PKEY_verify(context, signature.baseAddress, signature.count, output, digestLength)
        }
        guard hashed else {
            throw libcryptoError(.cryptoFailure, "hashing the signed bytes (\(algorithm))")
        }
        // 0 is a wrong signature, a negative value one OpenSSL could not even parse (bad DER):
        // both are answers, not errors.
        if result != 1 {
            discardLibcryptoErrors()
        }
        return result == 1
    }

    /// Hashes `first ‖ second` into `output` (``digestLength`` bytes); `false` when OpenSSL fails.
    private func hash(
        _ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>,
        into output: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        guard let context = EVP_MD_CTX_new() else {
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        return EVP_DigestInit_ex2(context, digest, nil) == 1
            && (first.isEmpty || EVP_DigestUpdate(context, first.baseAddress, first.count) == 1)
            && (second.isEmpty || EVP_DigestUpdate(context, second.baseAddress, second.count) == 1)
            && EVP_DigestFinal_ex(context, output, nil) == 1
    }

    private func takeContext() throws(WebAuthnError) -> OpaquePointer {
        if let context = idle.withLock({ $0.popLast() }) {
            return context.pointer
        }
        return try newContext()
    }

    private func giveBack(_ pointer: OpaquePointer) {
        let context = Context(pointer: pointer)
        let kept = idle.withLock { contexts in
            guard contexts.count < Self.idleLimit else {
                return false
            }
            contexts.append(context)
            return true
        }
        if !kept {
            EVP_PKEY_CTX_free(pointer)
        }
    }

    /// A context ready for `EVP_PKEY_verify` with the key and the algorithm's parameters.
    private func newContext() throws(WebAuthnError) -> OpaquePointer {
        let context = try check(EVP_PKEY_CTX_new_from_pkey(nil, key, nil), .cryptoFailure, "EVP_PKEY_CTX_new_from_pkey")
        do throws(WebAuthnError) {
            try check(EVP_PKEY_verify_init(context), .invalidKey, "EVP_PKEY_verify_init(\(algorithm))")
            try check(EVP_PKEY_CTX_set_signature_md(context, digest), .invalidKey, "signature digest (\(algorithm))")
            try EVPKey.setPadding(context, algorithm: algorithm)
        } catch {
            EVP_PKEY_CTX_free(context)
            throw error
        }
        return context
    }
}

/// The hashes signature algorithms sign with, fetched from the default provider once for the
/// process (`EVP_MD_fetch`) and only read after: `EVP_sha256()` and the like have OpenSSL 3 look
/// the digest up by name on every use.
enum FetchedDigest {
    private final class Fetched: @unchecked Sendable {  // the `EVP_MD *`s are never freed nor changed
        let sha1 = EVP_MD_fetch(nil, "SHA1", nil)
        let sha256 = EVP_MD_fetch(nil, "SHA256", nil)
        let sha384 = EVP_MD_fetch(nil, "SHA384", nil)
        let sha512 = EVP_MD_fetch(nil, "SHA512", nil)
    }
    private static let fetched = Fetched()

    /// SHA-256 (`EVP_sha256()` if the fetch failed).
    static var sha256: OpaquePointer? { fetched.sha256 ?? EVP_sha256() }

    /// The hash `algorithm` signs with; `nil` for EdDSA (RFC 8032 hashes inside the scheme) and ECDH.
    static func digest(_ algorithm: COSEAlgorithm) -> OpaquePointer? {
        switch algorithm {
        case .es256, .ps256, .rs256: sha256
        case .es384, .ps384, .rs384: fetched.sha384 ?? EVP_sha384()
        case .es512, .ps512, .rs512: fetched.sha512 ?? EVP_sha512()
        case .rs1: fetched.sha1 ?? EVP_sha1()
        case .eddsa, .ed25519, .ed448, .ecdhESHKDF256: nil
        }
    }
}
