import WebAuthn

/// An entry as ``FileCredentialsStorage`` keeps it on disk:
///
/// ```
/// "A0SE" ‖ 0x01 ‖ key ID (8 bytes) ‖ nonce (12) ‖ ciphertext ‖ tag (16)
/// ```
///
/// AES-256-GCM (NIST SP 800-38D) with the associated data `"Auth0Passkeys entry 1" ‖ 0x00 ‖ the
/// entry's key`, so an entry copied over another key's file does not open. The key ID (the first
/// bytes of HKDF-SHA-256 of the key, RFC 5869) tells an entry sealed under another key from a
/// tampered one without trying to decrypt it.
enum SealedEntry {
    /// The magic and format version.
    static let header: [UInt8] = Array("A0SE".utf8) + [1]
    /// The key ID's length.
    static let keyIDLength = 8

    /// The key ID of `key`.
    static func keyID(of key: SecretKey) -> [UInt8] {
        key.withUnsafeBytes { bytes in
            KDF.hkdfSHA256(
                inputKeyMaterial: Array(bytes), salt: [UInt8](), info: Array("Auth0Passkeys key id".utf8),
                length: keyIDLength)
        }
    }

    /// Seals `value`, the entry stored under `entryKey`.
    ///
    /// - Throws: `WebAuthnError` when OpenSSL fails.
    static func seal(_ value: [UInt8], key: SecretKey, entryKey: String) throws(WebAuthnError) -> [UInt8] {
        header + keyID(of: key) + (try AESGCM.seal(value, using: key, authenticating: associatedData(entryKey)))
    }

    /// Opens what ``seal(_:key:entryKey:)`` made.
    ///
    /// - Parameter path: the file, for errors.
    /// - Throws: ``CredentialsStorageError`` with `wrongKey` for another key's entry, `tampered`
    ///   for one truncated or altered.
    static func open(_ bytes: [UInt8], key: SecretKey, entryKey: String, path: String)
        throws(CredentialsStorageError) -> [UInt8]
    {
        let idEnd = header.count + keyIDLength
        guard bytes.count >= idEnd, bytes.starts(with: header) else {
            throw CredentialsStorageError(.tampered, path: path, "not a sealed entry (truncated or altered)")
        }
        guard Array(bytes[header.count..<idEnd]) == keyID(of: key) else {
            throw CredentialsStorageError(
                .wrongKey, path: path, "sealed under another key (another key file or passphrase)")
        }
        do {
            return try AESGCM.open(bytes[idEnd...], using: key, authenticating: associatedData(entryKey))
        } catch {
            throw CredentialsStorageError(.tampered, path: path, "the sealed entry is truncated or was altered")
        }
    }

    private static func associatedData(_ entryKey: String) -> [UInt8] {
        Array("Auth0Passkeys entry 1".utf8) + [0] + Array(entryKey.utf8)
    }
}
