import FoundationEssentials
import PasskeyAuthenticator
import Synchronization
import WebAuthn

/// A key holder outside the store, as an HSM is: it makes key pairs and hmac-secret seeds, keeps
/// them under opaque handles, and answers signing and HMAC requests; nothing ever reads a key out.
final class KeyHolder: Sendable {
    private struct Keys {
        var signing: [UInt64: SigningKey] = [:]
        var seeds: [UInt64: [UInt8]] = [:]
        var next: UInt64 = 1
    }
    private let keys = Mutex(Keys())

    /// Makes a key pair; its handle and public key.
    func generate(_ algorithm: COSEAlgorithm) throws -> (handle: UInt64, publicKey: COSEKey) {
        let key = try SigningKey.generate(algorithm)
        let handle = keys.withLock { keys in
            defer { keys.next += 1 }
            keys.signing[keys.next] = key
            return keys.next
        }
        return (handle, key.publicKey)
    }

    /// Makes a 32-byte seed; its handle.
    func generateSeed() -> UInt64 {
        keys.withLock { keys in
            defer { keys.next += 1 }
            keys.seeds[keys.next] = SecureRandom.bytes(32)
            return keys.next
        }
    }

    /// Signs with the key of `handle`, or `nil` for an unknown handle.
    func sign(_ message: [UInt8], handle: UInt64) throws -> [UInt8]? {
        try keys.withLock { $0.signing[handle] }?.signature(for: message)
    }

    /// HMAC-SHA-256 under the seed of `handle`, or `nil` for an unknown handle.
    func hmac(_ message: [UInt8], handle: UInt64) -> [UInt8]? {
        keys.withLock { $0.seeds[handle] }.map { HMACSHA256.authenticationCode(for: message, key: $0) }
    }
}

/// A credential store built on public API only, whose keys live in a ``KeyHolder``: its records
/// are a dictionary, its key blobs are the holder's opaque handles, and it signs through a
/// closure. It refuses to take a key in, as a token whose keys are made inside it does.
actor HandleStore: CredentialStore {
    private let holder: KeyHolder
    private let signer: @Sendable ([UInt8], UInt64) throws -> [UInt8]?
    private var records: [[UInt8]: StoredCredential] = [:]

    init(holder: KeyHolder) {
        self.holder = holder
        self.signer = { message, handle in try holder.sign(message, handle: handle) }
    }

    nonisolated func makeKey(_ request: CredentialKeyRequest) throws(StoreError) -> CredentialKey {
        guard request.importing == nil else {
            throw StoreError(.unsupported, "keys are made inside the holder; none can be taken in")
        }
        do {
            let (handle, publicKey) = try holder.generate(request.algorithm)
            return CredentialKey(
                algorithm: request.algorithm, publicKey: publicKey, privateKeyBlob: Self.blob(handle),
                prfSeedBlobWithUV: Self.blob(holder.generateSeed()),
                prfSeedBlobWithoutUV: Self.blob(holder.generateSeed()))
        } catch {
            throw StoreError(.unsupported, "the holder cannot make a \(request.algorithm) key")
        }
    }

    nonisolated func sign(_ message: [UInt8], with credential: StoredCredential) throws(StoreError) -> [UInt8] {
        guard let handle = Self.handle(credential.privateKeyBlob), let signature = try? signer(message, handle) else {
            throw StoreError(.corrupt, "no key has the handle of credential \(Base64URL.encode(credential.id))")
        }
        return signature
    }

    nonisolated func hmacSecret(_ salts: [[UInt8]], with credential: StoredCredential, userVerified: Bool)
        throws(StoreError) -> [[UInt8]]?
    {
        guard let blob = userVerified ? credential.prfSeedBlobWithUV : credential.prfSeedBlobWithoutUV else {
            return nil
        }
        guard let handle = Self.handle(blob) else {
            throw StoreError(.corrupt, "not a seed handle")
        }
        let outputs = salts.compactMap { holder.hmac($0, handle: handle) }
        guard outputs.count == salts.count else {
            throw StoreError(.corrupt, "no seed has this handle")
        }
        return outputs
    }

    func add(_ credential: StoredCredential) throws(StoreError) {
        guard records[credential.id] == nil else {
            throw StoreError(.duplicate, "already stored")
        }
        records[credential.id] = credential
    }

    func credential(id: [UInt8]) -> StoredCredential? { records[id] }

    func summaries(rpID: String) -> [CredentialSummary] {
        credentials(rpID: rpID).credentials.map(CredentialSummary.init)
    }

    func credentials(rpID: String) -> StoreListing {
        StoreListing(credentials: records.values.filter { $0.rpID == rpID })
    }

    func all() -> StoreListing { StoreListing(credentials: Array(records.values)) }

    func update(_ credential: StoredCredential) throws(StoreError) {
        guard records[credential.id] != nil else { throw StoreError(.notFound, "no such credential") }
        records[credential.id] = credential
    }

    func delete(id: [UInt8]) throws(StoreError) {
        guard records.removeValue(forKey: id) != nil else { throw StoreError(.notFound, "no such credential") }
    }

    func incrementCounter(id: [UInt8]) throws(StoreError) -> UInt32 {
        guard var credential = records[id] else { throw StoreError(.notFound, "no such credential") }
        credential.signCount += 1
        records[id] = credential
        return credential.signCount
    }

    private static func blob(_ handle: UInt64) -> [UInt8] {
        withUnsafeBytes(of: handle.bigEndian) { Array($0) }
    }

    private static func handle(_ blob: [UInt8]) -> UInt64? {
        guard blob.count == 8 else { return nil }
        return blob.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
