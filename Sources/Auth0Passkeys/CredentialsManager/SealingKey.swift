import BlockingIO
import FoundationEssentials
import Synchronization
import WebAuthn

/// The key of one ``FileCredentialsStorage``, read (or derived) once and then kept, as its
/// ``CredentialsSealing`` says: the 32 bytes of a key file, or scrypt of a passphrase with the
/// parameters of the directory's `.sealing` file.
final class SealingKey: Sendable {
    private let sealing: CredentialsSealing
    private let directory: String
    private let cached = Mutex<SecretKey?>(nil)

    init(_ sealing: CredentialsSealing, directory: String) {
        self.sealing = sealing
        self.directory = directory
    }

    /// The file of a passphrase storage's `PassphraseVerifier` (WebAuthn), in its directory.
    static let parametersName = ".sealing"

    /// The key, to open an entry that exists: never made here.
    ///
    /// - Throws: ``CredentialsStorageError`` with `wrongKey` when there is no key (the key file,
    ///   or the passphrase's `.sealing`, is missing) or the passphrase is not the entries'.
    func existing() throws(CredentialsStorageError) -> SecretKey {
        try resolve(creating: false)
    }

    /// The key, made now if there is none yet, to seal an entry.
    func creatingIfNeeded() throws(CredentialsStorageError) -> SecretKey {
        try resolve(creating: true)
    }

    private func resolve(creating: Bool) throws(CredentialsStorageError) -> SecretKey {
        if let key = cached.withLock({ $0 }) { return key }
        let key: SecretKey
        switch sealing {
        case .keyFile(let path): key = try Self.keyFile(path, creating: creating)
        case .passphrase(let passphrase):
            key = try Self.derived(passphrase, path: directory + "/" + Self.parametersName, creating: creating)
        }
        cached.withLock { $0 = key }
        return key
    }

    /// The key file's key; made (32 random bytes, 0600, in a 0700 directory) when `creating`
    /// and missing. Two processes making it at once agree on one (`OpenFile.create(_:with:)`).
    private static func keyFile(_ path: String, creating: Bool) throws(CredentialsStorageError) -> SecretKey {
        if let key = try readKeyFile(path) { return key }
        guard creating else {
            throw CredentialsStorageError(
                .wrongKey, path: path, "the key file the entries were sealed under is missing")
        }
        let slash = path.lastIndex(of: "/")
        let parent = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var bytes = SecretKey.random().withUnsafeBytes { Array($0) }
        defer { secureZero(&bytes) }
        try FileCredentialsStorage.StorageFile.makeDirectories(parent, parentPermissions: 0o700)
        _ = try FileCredentialsStorage.StorageFile(opening: parent, .directory).create(name, with: bytes)
        guard let key = try readKeyFile(path) else {
            throw CredentialsStorageError(.io, path: path, "the key file vanished as it was made")
        }
        return key
    }

    private static func readKeyFile(_ path: String) throws(CredentialsStorageError) -> SecretKey? {
        guard var bytes = try FileCredentialsStorage.read(path) else { return nil }
        defer { secureZero(&bytes) }
        guard let key = try? SecretKey(bytes: bytes) else {
            throw CredentialsStorageError(.tampered, path: path, "a key file holds 32 bytes, not \(bytes.count)")
        }
        return key
    }

    /// The passphrase's key under the verifier at `path`; with `creating`, a fresh one is written
    /// when there is none.
    private static func derived(_ passphrase: Passphrase, path: String, creating: Bool)
        throws(CredentialsStorageError) -> SecretKey
    {
        if let verifier = try readVerifier(path) {
            return try opened(passphrase, verifier, path: path)
        }
        guard creating else {
            throw CredentialsStorageError(
                .wrongKey, path: path, "the entries are not sealed under a passphrase (no .sealing file)")
        }
        let (verifier, key): (PassphraseVerifier, SecretKey)
        let encoded: [UInt8]
        do {
            (verifier, key) = try PassphraseVerifier.make(passphrase, checkedBy: .credentials(parametersName))
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            encoded = Array(try encoder.encode(verifier))
        } catch {
            throw CredentialsStorageError(.io, path: path, "cannot derive the key: \(error)")
        }
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        let folder = try FileCredentialsStorage.StorageFile(opening: directory, .directory)
        if try folder.create(parametersName, with: encoded) {
            return key
        }
        // Another process wrote its verifier first: use that one.
        guard let verifier = try readVerifier(path) else {
            throw CredentialsStorageError(.io, path: path, "the .sealing file vanished as it was made")
        }
        return try opened(passphrase, verifier, path: path)
    }

    private static func readVerifier(_ path: String) throws(CredentialsStorageError) -> PassphraseVerifier? {
        guard let bytes = try FileCredentialsStorage.read(path) else { return nil }
        guard let verifier = try? JSONDecoder().decode(PassphraseVerifier.self, from: Data(bytes)),
            verifier.isReasonable
        else {
            throw CredentialsStorageError(
                .tampered, path: path, "not a .sealing file, or its scrypt cost is out of bounds")
        }
        return verifier
    }

    private static func opened(_ passphrase: Passphrase, _ verifier: PassphraseVerifier, path: String)
        throws(CredentialsStorageError) -> SecretKey
    {
        let key: SecretKey?
        do {
            key = try verifier.key(passphrase, checkedBy: .credentials(parametersName))
        } catch {
            throw CredentialsStorageError(.io, path: path, "cannot derive the key: \(error)")
        }
        guard let key else {
            throw CredentialsStorageError(.wrongKey, path: path, "the passphrase does not open these credentials")
        }
        return key
    }
}
