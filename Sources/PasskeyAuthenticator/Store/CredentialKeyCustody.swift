import WebAuthn

/// Who keeps the secrets of a ``FileCredentialStore``'s credentials, when not the store itself:
/// an HSM, a TPM or a token. The store keeps the records (their files, lock, index and counters)
/// and hands key work to the custody, so another backend reuses all of the file store but its
/// keys.
///
/// Without a custody, the store seals every secret under its own store key. With one, the
/// record's blobs are whatever the custody put in ``CredentialKey``: a reference to the object
/// that holds the key. The store's own key still seals its attestation keys.
public protocol CredentialKeyCustody: Sendable {
    /// What keeps the keys, as the store's `store.json` records it when the store is made (for
    /// example `pkcs11:passkeys`); a store opened with another custody, or without one, refuses.
    var name: String { get }

    /// `profile` as an authenticator whose keys this custody keeps can run it: only the
    /// algorithms it makes keys for, and only the extensions it can serve. The default runs any
    /// profile.
    ///
    /// - Parameter profile: the profile asked for.
    /// - Returns: the profile, narrowed.
    func narrowing(_ profile: AuthenticatorProfile) -> AuthenticatorProfile

    /// Makes a new credential's key pair (and, if the custody has them, hmac-secret seeds) and
    /// describes them as the record will keep them.
    ///
    /// - Parameter request: the credential ID, RP ID and algorithm; `importing` may be refused.
    /// - Throws: `StoreError` with `unsupported` for an algorithm or import it cannot do.
    func makeKey(_ request: CredentialKeyRequest) async throws(StoreError) -> CredentialKey

    /// Signs `message` with the credential's private key, as WebAuthn encodes signatures.
    ///
    /// - Throws: `StoreError` when the key is gone or the custody fails.
    func sign(_ message: [UInt8], with credential: StoredCredential) async throws(StoreError) -> [UInt8]

    /// The hmac-secret outputs for `salts` (CTAP 2.1 §12.5), or `nil` when the credential has no
    /// seeds.
    ///
    /// - Throws: `StoreError` when the custody fails.
    func hmacSecret(_ salts: [[UInt8]], with credential: StoredCredential, userVerified: Bool)
        async throws(StoreError) -> [[UInt8]]?

    /// Checks, without using any secret, that a record's blobs are this custody's, so a record
    /// of another custody is reported as such. It runs while the store reads under its lock, so
    /// it must not block.
    ///
    /// - Throws: `StoreError` naming what is wrong.
    func check(_ credential: StoredCredential) throws(StoreError)

    /// Destroys a credential's key after its record was deleted; the default keeps it.
    ///
    /// - Throws: `StoreError` when the custody fails (the record is already gone).
    func discardKey(of credential: StoredCredential) async throws(StoreError)
}

extension CredentialKeyCustody {
    /// Any profile, as it is.
    public func narrowing(_ profile: AuthenticatorProfile) -> AuthenticatorProfile { profile }

    /// Keeps the key.
    public func discardKey(of credential: StoredCredential) async throws(StoreError) {}
}
