import BlockingIO
import FoundationEssentials
import WebAuthn

/// The store key: made with `store.json` (and `store.key`) for a new store, else read and
/// checked against `store.json`'s key check, under the exclusive lock.
extension FileCredentialStore {

    /// Reads `store.json` and the key it describes, or makes both for a new store; called under
    /// the exclusive lock.
    static func storeKey(
        root: StoreFile, credentials: StoreFile, passphrase: Passphrase?, custody: String?
    ) throws(StoreError) -> SecretKey {
        let headerPath = root.path + "/store.json"
        guard try root.contains("store.json") else {
            guard try !credentials.entries().contains(where: isCredentialFileName) else {
                throw StoreError(.corrupt, "is missing while credentials exist", file: headerPath)
            }
            return try create(root: root, passphrase: passphrase, custody: custody)
        }
        let data = Data(
            try StoreFile(opening: "store.json", in: root, .readOnly).readAll(limit: Files.fileSizeLimit))
        let header: Header
        do {
            let version = try JSONDecoder().decode(VersionProbe.self, from: data).version
            guard version == formatVersion else {
                throw StoreError(
                    .unsupportedVersion, "store format \(version); this library reads \(formatVersion)",
                    file: headerPath)
            }
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.corrupt, "not a store header: \(describe(error))", file: headerPath)
        }
        guard header.custody == custody else {
            throw StoreError(
                .unsupported,
                header.custody.map { "its keys are kept by \($0); open it with that custody (--backend pkcs11)" }
                    ?? "it keeps its own keys, sealed; it cannot be opened with custody \(custody ?? "")",
                file: headerPath)
        }
        switch (header.keySource, passphrase) {
        case (.scrypt, nil):
            throw StoreError(.wrongPassphrase, "the store is passphrase-protected and no passphrase was given")
        case (.keyFile, _?):
            throw StoreError(.wrongPassphrase, "the store uses a key file, not a passphrase")
        case (.scrypt, let passphrase?):
            guard let verifier = header.passphraseVerifier, verifier.isReasonable else {
                throw StoreError(.corrupt, "scrypt parameters are missing or out of bounds", file: headerPath)
            }
            let key: SecretKey?
            do {
                key = try verifier.key(passphrase, checkedBy: keyCheck)
            } catch {
                throw StoreError(.io, "scrypt failed: \(error.reason)")
            }
            guard let key else {
                throw StoreError(.wrongPassphrase, "the passphrase does not open this store")
            }
            return key
        case (.keyFile, nil):
            let key = try readKeyFile(root)
            guard keyCheck.isOpened(header.keyCheck, by: key) else {
                throw StoreError(
                    .corrupt, "the key does not match the key check in store.json", file: root.path + "/store.key")
            }
            return key
        }
    }

    private static func create(root: StoreFile, passphrase: Passphrase?, custody: String?) throws(StoreError)
        -> SecretKey
    {
        let key: SecretKey
        let verifier: PassphraseVerifier?
        do {
            if let passphrase {
                (verifier, key) = try PassphraseVerifier.make(passphrase, checkedBy: keyCheck)
            } else {
                (verifier, key) = (nil, .random())
            }
        } catch {
            throw StoreError(.io, "cannot derive the store key or seal its check: \(error.reason)", file: root.path)
        }
        let sealedCheck: Base64URL
        if let verifier {
            sealedCheck = verifier.keyCheck
        } else {
            do {
                sealedCheck = try keyCheck.seal(under: key)
            } catch {
                throw StoreError(.io, "cannot seal the key check: \(error.reason)", file: root.path)
            }
        }
        if passphrase == nil {
            var bytes = key.withUnsafeBytes { Array($0) }
            defer { secureZero(&bytes) }
            try root.replace("store.key", with: bytes)
        }
        let header = Header(
            version: formatVersion, keySource: verifier == nil ? .keyFile : .scrypt, scrypt: verifier?.scrypt,
            keyCheck: sealedCheck, custody: custody)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let bytes = try? encoder.encode(header) else {
            throw StoreError(.io, "cannot encode the store header", file: root.path + "/store.json")
        }
        try root.replace("store.json", with: Array(bytes))
        return key
    }

    /// The key scrypt derives from a passphrase (RFC 7914), for the store key and for sealed exports.
    static func derive(_ passphrase: Passphrase, _ parameters: ScryptParameters) throws(StoreError)
        -> SecretKey
    {
        do {
            return try parameters.key(for: passphrase)
        } catch {
            throw StoreError(.io, "scrypt failed: \(error.reason)")
        }
    }

    private static func readKeyFile(_ root: StoreFile) throws(StoreError) -> SecretKey {
        let file = try StoreFile(opening: "store.key", in: root, .readOnly)
        if try file.status().permissions & 0o077 != 0 {
            try file.setPermissions(0o600)
        }
        var bytes = try file.readAll(limit: SecretKey.byteCount)
        defer { secureZero(&bytes) }
        guard let key = try? SecretKey(bytes: bytes) else {
            throw StoreError(.corrupt, "is \(bytes.count) bytes, not \(SecretKey.byteCount)", file: file.path)
        }
        return key
    }
}
