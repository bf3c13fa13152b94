public import WebAuthn

/// A ``CredentialStore`` that hands a credential's private key out when asked to, as the W3C
/// WebDriver Get Credentials command (WebAuthn L3 §11.4) and a credential export need.
///
/// A separate protocol because most key custodians must not: a store over an HSM, a TPM or a
/// token keeps its keys unextractable and does not conform, and a caller that needs the key
/// finds out at compile time or with `as? any KeyExportingStore`. ``InMemoryCredentialStore`` and
/// ``FileCredentialStore`` conform; the key is opened from its sealed blob.
public protocol KeyExportingStore: CredentialStore {
    /// The private key of a stored credential, in the clear (inside OpenSSL; ``SigningKey``
    /// prints nothing of it).
    ///
    /// - Parameter credential: the credential, as this store returned it.
    /// - Returns: the key; ``SigningKey/exportedPKCS8()`` gives its PKCS#8 form.
    /// - Throws: `StoreError` with `corrupt` when the credential's blob is not one of this store's
    ///   for this credential.
    func exportPrivateKey(of credential: StoredCredential) async throws(StoreError) -> SigningKey
}
