private import CCrypto

extension AESGCM {
    /// Encrypts with EVP AES-256-GCM and returns the ciphertext and the 16-byte tag.
    static func encrypt(
        _ plaintext: some Collection<UInt8>, key: SecretKey, nonce: [UInt8], associatedData: some Collection<UInt8>
    ) throws(WebAuthnError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        let context = try check(EVP_CIPHER_CTX_new(), .cryptoFailure, "EVP_CIPHER_CTX_new")
        defer { EVP_CIPHER_CTX_free(context) }
        try start(context, encrypting: true, key: key, nonce: nonce, associatedData: associatedData)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        try withSecretBytes(plaintext) { (plaintext) throws(WebAuthnError) in
            try update(context, input: plaintext, output: &ciphertext, .cryptoFailure)
        }
        var length: Int32 = 0
        var scratch = [UInt8](repeating: 0, count: 16)
        try check(EVP_EncryptFinal_ex(context, &scratch, &length), .cryptoFailure, "EVP_EncryptFinal_ex")
        var tag = [UInt8](repeating: 0, count: tagLength)
        try check(
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagLength), &tag), .cryptoFailure,
            "EVP_CTRL_AEAD_GET_TAG")
        return (ciphertext, tag)
    }

    /// Decrypts with EVP AES-256-GCM; any failure, including a tag mismatch, is `decryption-failed`.
    static func decrypt(
        _ ciphertext: ArraySlice<UInt8>, key: SecretKey, nonce: ArraySlice<UInt8>, tag: ArraySlice<UInt8>,
        associatedData: some Collection<UInt8>
    ) throws(WebAuthnError) -> [UInt8] {
        let context = try check(EVP_CIPHER_CTX_new(), .cryptoFailure, "EVP_CIPHER_CTX_new")
        defer { EVP_CIPHER_CTX_free(context) }
        try start(context, encrypting: false, key: key, nonce: Array(nonce), associatedData: associatedData)
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        do throws(WebAuthnError) {
            try withBorrowedBytes(ciphertext) { (ciphertext) throws(WebAuthnError) in
                try update(context, input: ciphertext, output: &plaintext, .decryptionFailed)
            }
            var tag = Array(tag)
            try check(
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagLength), &tag), .decryptionFailed,
                "EVP_CTRL_AEAD_SET_TAG")
            var length: Int32 = 0
            var scratch = [UInt8](repeating: 0, count: 16)
            guard EVP_DecryptFinal_ex(context, &scratch, &length) == 1 else {
                discardLibcryptoErrors()
                throw WebAuthnError(
                    .decryptionFailed, "AES-GCM tag mismatch: wrong key or associated data, or tampered")
            }
            return plaintext
        } catch {
            secureZero(&plaintext)
            throw error
        }
    }

    private static func start(
        _ context: OpaquePointer, encrypting: Bool, key: SecretKey, nonce: [UInt8],
        associatedData: some Collection<UInt8>
    ) throws(WebAuthnError) {
        let code: WebAuthnError.Code = encrypting ? .cryptoFailure : .decryptionFailed
        let initialised = key.withUnsafeBytes { key in
            nonce.withUnsafeBytes { nonce in
                EVP_CipherInit_ex2(
                    context, EVP_aes_256_gcm(), key.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    nonce.baseAddress?.assumingMemoryBound(to: UInt8.self), encrypting ? 1 : 0, nil)
            }
        }
        try check(initialised, code, "EVP_CipherInit_ex2(AES-256-GCM)")
        guard !associatedData.isEmpty else {
            return
        }
        var length: Int32 = 0
        let result = withBorrowedBytes(associatedData) { aad in
            EVP_CipherUpdate(context, nil, &length, aad.baseAddress, Int32(aad.count))
        }
        try check(result, code, "EVP_CipherUpdate(associated data)")
    }

    private static func update(
        _ context: OpaquePointer, input: UnsafeBufferPointer<UInt8>, output: inout [UInt8], _ code: WebAuthnError.Code
    ) throws(WebAuthnError) {
        guard input.count > 0 else {
            return
        }
        guard input.count <= Int32.max else {
            throw WebAuthnError(.limitExceeded, "AES-GCM input of \(input.count) bytes is too long")
        }
        var length: Int32 = 0
        try check(
            EVP_CipherUpdate(context, &output, &length, input.baseAddress, Int32(input.count)), code,
            "EVP_CipherUpdate")
    }
}
