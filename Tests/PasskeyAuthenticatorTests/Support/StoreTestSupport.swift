import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// The two implementations, for tests that hold for both.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case inMemory, file

    var testDescription: String { rawValue }

    func open(in directory: TemporaryDirectory) throws -> any CredentialStore {
        switch self {
        case .inMemory: InMemoryCredentialStore()
        case .file: try FileCredentialStore(directory: directory.appending("store"))
        }
    }
}

/// A platform-profile credential sealed under `store`'s key.
func makeCredential(
    in store: some CredentialStore, id: [UInt8] = SecureRandom.bytes(16), rpID: String = "example.com",
    key: SigningKey? = nil, createdAt: Date = Date(), withPRF: Bool = false
) throws -> StoredCredential {
    try StoredCredential(
        id: id, rpID: rpID, userHandle: SecureRandom.bytes(16), userName: "alice@\(rpID)",
        userDisplayName: "Alice", privateKey: key ?? SigningKey.generate(.es256), sealingKey: store.sealingKey,
        profile: "platform", backupEligible: true, backupState: true, discoverable: true,
        prfSecretWithUV: withPRF ? .random() : nil, prfSecretWithoutUV: withPRF ? .random() : nil,
        createdAt: createdAt)
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
