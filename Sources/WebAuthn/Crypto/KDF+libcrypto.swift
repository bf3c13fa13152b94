private import CCrypto

extension KDF {
    /// HKDF-SHA-256 through EVP_KDF "HKDF" (parameters built in `ccrypto_hkdf_sha256`).
    static func deriveHKDFSHA256(
        inputKeyMaterial: some Collection<UInt8>, salt: some Collection<UInt8>, info: some Collection<UInt8>,
        length: Int
    ) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: length)
        let result = withSecretBytes(inputKeyMaterial) { ikm in
            withBorrowedBytes(salt) { salt in
                withBorrowedBytes(info) { info in
                    ccrypto_hkdf_sha256(
                        &output, length, ikm.baseAddress, ikm.count, salt.baseAddress, salt.count, info.baseAddress,
                        info.count)
                }
            }
        }
        // The length was checked against RFC 5869's limit, so only allocation failure is left.
        precondition(result == 1, "HKDF-SHA-256 failed: \(libcryptoError(.cryptoFailure, "EVP_KDF_derive(HKDF)"))")
        return output
    }

    /// scrypt through EVP_KDF "SCRYPT" (parameters built in `ccrypto_scrypt`).
    static func deriveScrypt(
        password: some Collection<UInt8>, salt: some Collection<UInt8>, n: UInt64, r: UInt32, p: UInt32, length: Int
    ) throws(WebAuthnError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: length)
        let result = withSecretBytes(password) { password in
            withBorrowedBytes(salt) { salt in
                ccrypto_scrypt(
                    &output, length, password.baseAddress, password.count, salt.baseAddress, salt.count, n, r, p,
                    scryptMaximumMemory)
            }
        }
        try check(result, .cryptoFailure, "EVP_KDF_derive(SCRYPT, n = \(n), r = \(r), p = \(p))")
        return output
    }
}
