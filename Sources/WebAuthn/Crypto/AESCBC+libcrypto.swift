private import CCrypto

extension AESCBC {
    /// Runs EVP AES-256-CBC with padding off over input of whole blocks (lengths checked by the
    /// caller). The input is treated as secret either way: plaintext going in, or coming out.
    static func cipher(
        _ input: some Collection<UInt8>, key: SecretKey, iv: [UInt8], encrypting: Bool
    ) throws(WebAuthnError) -> [UInt8] {
        guard input.count <= Int32.max else {
            throw WebAuthnError(.limitExceeded, "AES-CBC input of \(input.count) bytes is too long")
        }
        let context = try check(EVP_CIPHER_CTX_new(), .cryptoFailure, "EVP_CIPHER_CTX_new")
        defer { EVP_CIPHER_CTX_free(context) }
        let initialised = key.withUnsafeBytes { key in
            EVP_CipherInit_ex2(
                context, EVP_aes_256_cbc(), key.baseAddress?.assumingMemoryBound(to: UInt8.self), iv,
                encrypting ? 1 : 0, nil)
        }
        try check(initialised, .cryptoFailure, "EVP_CipherInit_ex2(AES-256-CBC)")
        try check(EVP_CIPHER_CTX_set_padding(context, 0), .cryptoFailure, "EVP_CIPHER_CTX_set_padding")
        var output = [UInt8](repeating: 0, count: input.count + blockLength)
        var written: Int32 = 0
        var final: Int32 = 0
        let result = withSecretBytes(input) { input in
            output.withUnsafeMutableBufferPointer { output in
                guard
                    EVP_CipherUpdate(context, output.baseAddress, &written, input.baseAddress, Int32(input.count)) == 1
                else {
                    return Int32(0)
                }
                return EVP_CipherFinal_ex(context, output.baseAddress.map { $0 + Int(written) }, &final)
            }
        }
        guard result == 1, Int(written + final) == input.count else {
            secureZero(&output)
            throw libcryptoError(.cryptoFailure, encrypting ? "AES-256-CBC encryption" : "AES-256-CBC decryption")
        }
        // `removeLast` keeps the buffer, so the wipe of the caller reaches every byte written.
        output.removeLast(blockLength)
        return output
    }
}
