import CCrypto

/// The raw baseline of assertion verification (issue 46): OpenSSL verifying an ES256 signature
/// with a key prepared once, with nothing of the library around it. The key is read from its
/// SubjectPublicKeyInfo once (`d2i_PUBKEY`), one `EVP_PKEY_CTX` is initialized for it once
/// (`EVP_PKEY_verify_init`, SHA-256 as the signature digest), and each verification is one
/// SHA-256 of the signed bytes (`EVP_Digest` with the digest fetched once) and one
/// `EVP_PKEY_verify` of that hash on the same context, which EVP_PKEY_verify(3) allows for many
/// operations with the same parameters: the fastest documented verification OpenSSL 3 has (in
/// this machine's instruction counts, 0.4% under a copied `EVP_DigestVerify` context, 3.5% under
/// a new one).
final class RawPreparedVerifier: @unchecked Sendable {  // the bench calls it from one task at a time
    private let key: OpaquePointer
    private let context: OpaquePointer
    private let sha256: OpaquePointer

    /// Prepares the P-256 public key `spki` (DER SubjectPublicKeyInfo).
    ///
    /// - Throws: ``BenchError`` naming the call that failed.
    init(spki: [UInt8]) throws(BenchError) {
        let key = spki.withUnsafeBufferPointer { der in
            var cursor = der.baseAddress
            return d2i_PUBKEY(nil, &cursor, der.count)
        }
        guard let key else { throw BenchError("d2i_PUBKEY refused the key") }
        guard let sha256 = EVP_MD_fetch(nil, "SHA256", nil) else {
            EVP_PKEY_free(key)
            throw BenchError("EVP_MD_fetch(SHA256) failed")
        }
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil), EVP_PKEY_verify_init(context) == 1,
            EVP_PKEY_CTX_set_signature_md(context, sha256) == 1
        else {
            EVP_MD_free(sha256)
            EVP_PKEY_free(key)
            throw BenchError("preparing an EVP_PKEY_CTX to verify failed")
        }
        self.key = key
        self.context = context
        self.sha256 = sha256
    }

    deinit {
        EVP_PKEY_CTX_free(context)
        EVP_MD_free(sha256)
        EVP_PKEY_free(key)
    }

    /// Whether `signature` (DER `Ecdsa-Sig-Value`) is valid for `message`.
    func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
            EVP_Digest(message, message.count, digest.baseAddress, nil, sha256, nil) == 1
                && EVP_PKEY_verify(context, signature, signature.count, digest.baseAddress, 32) == 1
        }
    }
}
