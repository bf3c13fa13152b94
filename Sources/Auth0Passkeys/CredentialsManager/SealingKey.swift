import BlockingIO
import FoundationEssentials
import Glibc
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

    /// `.sealing`: `{ "version": 1, "scrypt": ScryptParameters, "keyCheck": base64url }`, the key
    /// check being ``checkPlaintext`` sealed under the derived key.
    struct Parameters: Codable {
        var version: Int
        var scrypt: ScryptParameters
        var keyCheck: Base64URL
    }

    static let parametersName = ".sealing"
    private static let checkPlaintext = Array("Auth0Passkeys key check".utf8)
    private static let checkContext = Array(".sealing".utf8)

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
    /// and missing. Two processes making it at once agree on one (``DurableFile/create(_:inDirectory:path:with:)``).
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
        do throws(SystemCallError) {
            try SmallFile.makePrivateDirectory(parent)
            let descriptor = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw SystemCallError("open", parent) }
            defer { close(descriptor) }
            _ = try DurableFile.create(name, inDirectory: descriptor, path: parent, with: bytes)
        } catch {
            throw CredentialsStorageError(error)
        }
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

    /// The passphrase's key under the parameters at `path`; with `creating`, fresh parameters
    /// are written when there are none.
    private static func derived(_ passphrase: Passphrase, path: String, creating: Bool)
        throws(CredentialsStorageError) -> SecretKey
    {
        if let parameters = try readParameters(path) {
            return try opened(passphrase, parameters, path: path)
        }
        guard creating else {
            throw CredentialsStorageError(
                .wrongKey, path: path, "the entries are not sealed under a passphrase (no .sealing file)")
        }
        let scrypt = ScryptParameters.fresh()
        let key: SecretKey
        let encoded: [UInt8]
        do {
            key = try scrypt.key(for: passphrase)
            let check = try AESGCM.seal(checkPlaintext, using: key, authenticating: checkContext)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            encoded = Array(try encoder.encode(Parameters(version: 1, scrypt: scrypt, keyCheck: Base64URL(check))))
        } catch {
            throw CredentialsStorageError(.io, path: path, "cannot derive the key: \(error)")
        }
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        do throws(SystemCallError) {
            let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw SystemCallError("open", directory) }
            defer { close(descriptor) }
            if try DurableFile.create(parametersName, inDirectory: descriptor, path: directory, with: encoded) {
                return key
            }
        } catch {
            throw CredentialsStorageError(error)
        }
        // Another process wrote its parameters first: use those.
        guard let parameters = try readParameters(path) else {
            throw CredentialsStorageError(.io, path: path, "the .sealing file vanished as it was made")
        }
        return try opened(passphrase, parameters, path: path)
    }

    private static func readParameters(_ path: String) throws(CredentialsStorageError) -> Parameters? {
        guard let bytes = try FileCredentialsStorage.read(path) else { return nil }
        guard let parameters = try? JSONDecoder().decode(Parameters.self, from: Data(bytes)),
            parameters.version == 1, parameters.scrypt.isReasonable
        else {
            throw CredentialsStorageError(
                .tampered, path: path, "not a .sealing file, or its scrypt cost is out of bounds")
        }
        return parameters
    }

    private static func opened(_ passphrase: Passphrase, _ parameters: Parameters, path: String)
        throws(CredentialsStorageError) -> SecretKey
    {
        let key: SecretKey
        do {
            key = try parameters.scrypt.key(for: passphrase)
        } catch {
            throw CredentialsStorageError(.io, path: path, "cannot derive the key: \(error)")
        }
        guard (try? AESGCM.open(parameters.keyCheck.bytes, using: key, authenticating: checkContext)) != nil else {
            throw CredentialsStorageError(.wrongKey, path: path, "the passphrase does not open these credentials")
        }
        return key
    }
}
