import WebAuthn

extension SealedKeys {
    /// Seals an attestation key (a CA's or a batch's) as PKCS#8 under the store key, bound to its
    /// certificate by the associated data
    /// `"SoftPasskey attestation-key" ‖ 0x00 ‖ SHA-256(certificate DER)`, so a key moved to
    /// another certificate's entry no longer opens.
    ///
    /// - Throws: `StoreError` with `io` when OpenSSL cannot seal it.
    func seal(attestationKey key: SigningKey, certificate: [UInt8]) throws(StoreError) -> [UInt8] {
        do {
            return try key.sealedPKCS8(using: storeKey, authenticating: Self.attestationContext(certificate))
        } catch {
            throw StoreError(.io, "cannot seal an attestation key: \(error.reason)")
        }
    }

    /// Opens what ``seal(attestationKey:certificate:)`` sealed (once, then kept, found by the
    /// sealed bytes and the certificate they are bound to).
    ///
    /// - Throws: `StoreError` with `corrupt` when it does not open for `certificate` under the
    ///   store key.
    func openAttestationKey(_ sealed: [UInt8], certificate: [UInt8]) throws(StoreError) -> SigningKey {
        let context = Self.attestationContext(certificate)
        return try openedKeys.key(sealed: sealed + context) { () throws(StoreError) in
            do {
                return try SigningKey(sealedPKCS8: sealed, using: storeKey, authenticating: context)
            } catch {
                throw StoreError(
                    .corrupt,
                    "a sealed attestation key does not open under the store key (tampered, or from another store)")
            }
        }
    }

    private static func attestationContext(_ certificate: [UInt8]) -> [UInt8] {
        Array("SoftPasskey attestation-key".utf8) + [0] + SHA256Digest.hash(certificate)
    }
}
