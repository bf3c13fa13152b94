import WebAuthn

/// The key custody of the software stores (``InMemoryCredentialStore``, ``FileCredentialStore``):
/// every secret is kept sealed with AES-256-GCM under the store key, as the blobs of a
/// ``CredentialKey``, and opened only to sign or to compute an hmac-secret output.
///
/// Each blob is bound to its credential and purpose by its associated data:
///
/// ```
/// associatedData(purpose) = "SoftPasskey " ‖ purpose ‖ 0x00 ‖ uint16be(len(id)) ‖ id ‖ UTF-8(rpID)
/// purpose                 = "private-key" / "prf-with-uv" / "prf-without-uv"
/// ```
///
/// so a sealed key moved to another record, or to another field, no longer opens. The store key
/// never leaves this type. Private keys opened once are kept (``OpenedKeys``), as a platform
/// authenticator keeps its keys in its secure element rather than unsealing one per use.
///
/// `Sendable`: the key is immutable and the cache is behind a mutex, so signing needs no actor.
final class SealedKeys: Sendable {
    let storeKey: SecretKey
    let openedKeys = OpenedKeys()

    /// Creates the custody of a store whose key is `storeKey`.
    init(storeKey: SecretKey) {
        self.storeKey = storeKey
    }

    /// Makes (or takes in) a new credential's secrets and seals them.
    ///
    /// - Throws: `StoreError` with `io` when OpenSSL cannot make or seal the key.
    func makeKey(_ request: CredentialKeyRequest) throws(StoreError) -> CredentialKey {
        let id = request.credentialID
        do {
            let secrets = try request.importing ?? CredentialSecrets.random(request.algorithm)
            guard secrets.privateKey.algorithm == request.algorithm else {
                throw StoreError(
                    .invalidCredential,
                    "the key taken in is \(secrets.privateKey.algorithm), not \(request.algorithm)")
            }
            return CredentialKey(
                algorithm: request.algorithm, publicKey: secrets.privateKey.publicKey,
                privateKeyBlob: try secrets.privateKey.sealedPKCS8(
                    using: storeKey, authenticating: Self.associatedData(.privateKey, id: id, rpID: request.rpID)),
                prfSeedBlobWithUV: try seal(secrets.prfSeedWithUV, .prfWithUV, id: id, rpID: request.rpID),
                prfSeedBlobWithoutUV: try seal(secrets.prfSeedWithoutUV, .prfWithoutUV, id: id, rpID: request.rpID))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.io, "cannot make or seal the key: \(error)")
        }
    }

    /// Signs `message` with the credential's private key; `reproducibly`, with the same signature
    /// for the same message wherever the algorithm allows (RFC 6979 for ES256; PS256's salt stays
    /// random).
    ///
    /// - Throws: `StoreError` with `corrupt` when the sealed key does not open for this record
    ///   (another store's, another record's, or tampered), or `io` when OpenSSL fails.
    func sign(_ message: [UInt8], with credential: StoredCredential, reproducibly: Bool = false) throws(StoreError)
        -> [UInt8]
    {
        let key = try privateKey(of: credential)
        do {
            guard reproducibly, key.algorithm != .ps256 else {
                return try key.signature(for: message)
            }
            return try key.deterministicSignature(for: message)
        } catch {
            throw StoreError(.io, "signing with \(Base64URL.encode(credential.id)) failed: \(error.reason)")
        }
    }

    /// The credential's private key, opened (once, then kept).
    ///
    /// - Throws: `StoreError` with `corrupt` when the sealed key does not open for this record.
    func privateKey(of credential: StoredCredential) throws(StoreError) -> SigningKey {
        try openedKeys.key(sealed: credential.privateKeyBlob) { () throws(StoreError) in
            do {
                return try SigningKey(
                    sealedPKCS8: credential.privateKeyBlob, using: storeKey,
                    authenticating: Self.associatedData(.privateKey, id: credential.id, rpID: credential.rpID),
                    rsaAlgorithm: credential.algorithm)
            } catch {
                throw Self.doesNotOpen(.privateKey, credential)
            }
        }
    }

    /// `HMAC-SHA-256(CredRandom, salt)` for each salt, with the seed of user-verified requests or
    /// of the others (CTAP 2.1 §12.5); `nil` when the credential has no seeds.
    ///
    /// - Throws: `StoreError` with `corrupt` when the sealed seed does not open for this record.
    func hmacSecret(_ salts: [[UInt8]], with credential: StoredCredential, userVerified: Bool)
        throws(StoreError) -> [[UInt8]]?
    {
        let purpose: SealPurpose = userVerified ? .prfWithUV : .prfWithoutUV
        guard let sealed = userVerified ? credential.prfSeedBlobWithUV : credential.prfSeedBlobWithoutUV else {
            return nil
        }
        var seed: [UInt8]
        do {
            seed = try AESGCM.open(
                sealed, using: storeKey,
                authenticating: Self.associatedData(purpose, id: credential.id, rpID: credential.rpID))
        } catch {
            throw Self.doesNotOpen(purpose, credential)
        }
        defer { secureZero(&seed) }
        return salts.map { HMACSHA256.authenticationCode(for: $0, key: seed) }
    }

    /// Checks that every sealed field of `credential` opens under the store key for this record,
    /// without keeping what it opens: how the store tells a tampered or swapped record from a
    /// good one.
    ///
    /// - Throws: `WebAuthnError` with `decryption-failed` naming the field that does not open.
    func check(_ credential: StoredCredential) throws(WebAuthnError) {
        let fields: [(SealPurpose, [UInt8]?)] = [
            (.privateKey, credential.privateKeyBlob), (.prfWithUV, credential.prfSeedBlobWithUV),
            (.prfWithoutUV, credential.prfSeedBlobWithoutUV),
        ]
        for case let (purpose, sealed?) in fields {
            do {
                var opened = try AESGCM.open(
                    sealed, using: storeKey,
                    authenticating: Self.associatedData(purpose, id: credential.id, rpID: credential.rpID))
                secureZero(&opened)
            } catch {
                throw WebAuthnError(
                    .decryptionFailed, "the sealed \(purpose.rawValue) does not open under the store key")
            }
        }
    }

    // MARK: Sealing

    /// What a sealed field holds; part of its associated data.
    enum SealPurpose: String {
        case privateKey = "private-key"
        case prfWithUV = "prf-with-uv"
        case prfWithoutUV = "prf-without-uv"
    }

    /// The associated data binding a sealed field to its purpose, credential ID and RP ID (see the
    /// type's discussion); the ID's length prefix keeps the split between ID and RP ID unambiguous.
    static func associatedData(_ purpose: SealPurpose, id: [UInt8], rpID: String) -> [UInt8] {
        precondition(id.count <= Int(UInt16.max), "a credential ID is at most 65535 bytes")
        return Array("SoftPasskey \(purpose.rawValue)".utf8) + [0, UInt8(id.count >> 8), UInt8(id.count & 0xFF)]
            + id + Array(rpID.utf8)
    }

    private func seal(_ secret: SecretKey, _ purpose: SealPurpose, id: [UInt8], rpID: String)
        throws(WebAuthnError) -> [UInt8]
    {
        var bytes = secret.withUnsafeBytes { Array($0) }
        defer { secureZero(&bytes) }
        return try AESGCM.seal(bytes, using: storeKey, authenticating: Self.associatedData(purpose, id: id, rpID: rpID))
    }

    private static func doesNotOpen(_ purpose: SealPurpose, _ credential: StoredCredential) -> StoreError {
        StoreError(
            .corrupt,
            "the sealed \(purpose.rawValue) of credential \(Base64URL.encode(credential.id)) does not open under "
                + "the store key (tampered, or from another store)")
    }
}
