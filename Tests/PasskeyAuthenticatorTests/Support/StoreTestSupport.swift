import Foundation
import PasskeyAuthenticator
import Testing
import WebAuthn

/// A fresh directory under the system's temporary directory, one per test; `remove()` it in a
/// `defer`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/passkey-store-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw POSIXError(.EIO)
        }
        path = String(cString: made)
    }

    /// A path inside the directory.
    func appending(_ name: String) -> String {
        path + "/" + name
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The two implementations, for tests that hold for both.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case inMemory, file

    var testDescription: String { rawValue }

    func open(in directory: TemporaryDirectory) async throws -> any CredentialStore {
        switch self {
        case .inMemory: InMemoryCredentialStore()
        case .file: try await FileCredentialStore(directory: directory.appending("store"))
        }
    }
}

/// A platform-profile credential whose key `store` made (or took in, when `key` is given).
func makeCredential(
    in store: some CredentialStore, id: [UInt8] = SecureRandom.bytes(16), rpID: String = "example.com",
    key: SigningKey? = nil, createdAt: Date = Date()
) async throws -> StoredCredential {
    let secrets = key.map { CredentialSecrets(privateKey: $0, prfSeedWithUV: .random(), prfSeedWithoutUV: .random()) }
    return try StoredCredential(
        id: id, rpID: rpID, userHandle: SecureRandom.bytes(16), userName: "alice@\(rpID)",
        userDisplayName: "Alice",
        key: await store.makeKey(
            CredentialKeyRequest(
                credentialID: id, rpID: rpID, algorithm: key?.algorithm ?? .es256, importing: secrets)),
        profile: "platform", backupEligible: true, backupState: true, discoverable: true, createdAt: createdAt)
}

/// Whether `store` signs with `credential`'s key: a signature it makes over a random message
/// verifies with the credential's public key.
func signs(_ store: some CredentialStore, with credential: StoredCredential) async throws -> Bool {
    let message = SecureRandom.bytes(32)
    return try credential.publicKey.isValidSignature(try await store.sign(message, with: credential), for: message)
}

/// Every regular file below `path`, recursively, as (path, bytes).
func filesBelow(_ path: String) throws -> [(path: String, bytes: [UInt8])] {
    let enumerator = FileManager.default.enumerator(atPath: path)
    var files: [(String, [UInt8])] = []
    while let relative = enumerator?.nextObject() as? String {
        let full = path + "/" + relative
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
            files.append((full, Array(try Data(contentsOf: URL(fileURLWithPath: full)))))
        }
    }
    return files
}

/// The permission bits of a path.
func permissions(_ path: String) throws -> Int {
    var info = stat()
    guard stat(path, &info) == 0 else {
        throw POSIXError(.ENOENT)
    }
    return Int(info.st_mode & 0o777)
}

/// Whether `haystack` contains `needle` as a contiguous run.
func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else {
        return false
    }
    return (0...(haystack.count - needle.count)).contains { start in
        haystack[start..<(start + needle.count)].elementsEqual(needle)
    }
}

/// The path of a credential's file in a file store at `store`.
func credentialFile(_ id: [UInt8], store: String) -> String {
    store + "/credentials/" + Base64URL.encode(id) + ".json"
}
