import Synchronization
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
/// A credential this custody makes itself is sealed once: its private key. Its two hmac-secret
/// seeds are not drawn and sealed but derived when used (CTAP 2.1 §12.5 leaves how `CredRandom`
/// is made to the authenticator), from the store's seed secret and the same binding, with
/// HKDF-SHA-256 (RFC 5869):
///
/// ```
/// seedSecret        = HKDF(IKM = store key, salt = "", info = "SoftPasskey hmac-secret seeds", L = 32)
/// CredRandom        = HKDF(IKM = seedSecret, salt = "", info = associatedData(purpose), L = 32)
/// blob of each seed = "SoftPasskey derived seed"       ; 24 bytes: a reference, shorter than any sealed blob
/// ```
///
/// The seed secret is as safe as the store key, since it is made from it and never stored: it
/// exists only in this type, and nothing prints it. Seeds taken in (``CredentialKeyRequest/importing``:
/// seeded mode, imports, vectors) and those of credentials made before are sealed blobs, opened
/// as they always were, so their hmac-secret and PRF outputs stay what they were.
///
/// `Sendable`: the keys are immutable and the caches are behind mutexes, so signing needs no actor.
final class SealedKeys: Sendable {
    let storeKey: SecretKey
    let openedKeys = OpenedKeys()
    /// The secret the hmac-secret seeds of the credentials made here derive from.
    private let seedSecret: SecretKey
    /// The private-key blobs ``makeKey(_:)`` sealed and no record has taken yet, with the
    /// associated data each was sealed with: ``check(_:)`` knows those open without opening them.
    private let justSealed = Mutex<[[UInt8]: [UInt8]]>([:])
    /// How many blobs ``justSealed`` keeps; past that (keys made and never recorded) it starts over.
    private static let justSealedCapacity = 64

    /// The blob of an hmac-secret seed that is derived rather than sealed (see the type's discussion).
    static let derivedSeedBlob = Array("SoftPasskey derived seed".utf8)

    /// Creates the custody of a store whose key is `storeKey`.
    init(storeKey: SecretKey) {
        self.storeKey = storeKey
        var secret = storeKey.withUnsafeBytes {
            KDF.hkdfSHA256(
                inputKeyMaterial: $0, salt: [], info: Array("SoftPasskey hmac-secret seeds".utf8),
                length: 32)
        }
        defer { secureZero(&secret) }
        // 32 bytes, as asked of HKDF: the one length a SecretKey takes.
        seedSecret = try! SecretKey(bytes: secret)
    }

    /// Makes (or takes in) a new credential's secrets and seals them: a key made here is the one
    /// sealed secret of its credential, whose seeds are derived; secrets taken in are all sealed.
    ///
    /// - Throws: `StoreError` with `io` when OpenSSL cannot make or seal the key.
    func makeKey(_ request: CredentialKeyRequest) throws(StoreError) -> CredentialKey {
        let id = request.credentialID
        do {
            guard let secrets = request.importing else {
                let privateKey = try SigningKey.generate(request.algorithm)
                let associatedData = Self.associatedData(.privateKey, id: id, rpID: request.rpID)
                let blob = try privateKey.sealedPKCS8(using: storeKey, authenticating: associatedData)
                justSealed.withLock {
                    if $0.count >= Self.justSealedCapacity {
                        $0.removeAll()
                    }
                    $0[blob] = associatedData
                }
                return CredentialKey(
                    algorithm: request.algorithm, publicKey: privateKey.publicKey, privateKeyBlob: blob,
                    prfSeedBlobWithUV: Self.derivedSeedBlob, prfSeedBlobWithoutUV: Self.derivedSeedBlob)
            }
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
        let associatedData = Self.associatedData(purpose, id: credential.id, rpID: credential.rpID)
        var seed: [UInt8]
        if sealed == Self.derivedSeedBlob {
            seed = seedSecret.withUnsafeBytes {
                KDF.hkdfSHA256(inputKeyMaterial: $0, salt: [], info: associatedData, length: 32)
            }
        } else {
            do {
                seed = try AESGCM.open(sealed, using: storeKey, authenticating: associatedData)
            } catch {
                throw Self.doesNotOpen(purpose, credential)
            }
        }
        defer { secureZero(&seed) }
        return salts.map { HMACSHA256.authenticationCode(for: $0, key: seed) }
    }

    /// Checks that every sealed field of `credential` opens under the store key for this record,
    /// without keeping what it opens: how the store tells a tampered or swapped record from a
    /// good one.
    ///
    /// A derived seed's blob seals nothing, so there is nothing to open. A private key that
    /// ``makeKey(_:)`` has just sealed with this record's associated data is known to open (this
    /// custody made those very bytes), so the first check of a new record opens nothing.
    ///
    /// - Throws: `WebAuthnError` with `decryption-failed` naming the field that does not open.
    func check(_ credential: StoredCredential) throws(WebAuthnError) {
        let fields: [(SealPurpose, [UInt8]?)] = [
            (.privateKey, credential.privateKeyBlob), (.prfWithUV, credential.prfSeedBlobWithUV),
            (.prfWithoutUV, credential.prfSeedBlobWithoutUV),
        ]
        for case let (purpose, sealed?) in fields {
            if purpose != .privateKey && sealed == Self.derivedSeedBlob {
                continue
            }
            let associatedData = Self.associatedData(purpose, id: credential.id, rpID: credential.rpID)
            if purpose == .privateKey, justSealed.withLock({ $0.removeValue(forKey: sealed) }) == associatedData {
                continue
            }
            do {
                var opened = try AESGCM.open(sealed, using: storeKey, authenticating: associatedData)
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
