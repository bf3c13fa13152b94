import Foundation
import PasskeyAuthenticator
import TestSupport
import WebAuthn

/// A platform-profile credential whose key `store` made (or took in, when `key` is given).
func makeCredential(
    in store: some CredentialStore, id: [UInt8] = SecureRandom.bytes(16), rpID: String = "example.com",
    userHandle: [UInt8] = SecureRandom.bytes(16), key: SigningKey? = nil, createdAt: Date = Date()
) async throws -> StoredCredential {
    let secrets = key.map { CredentialSecrets(privateKey: $0, prfSeedWithUV: .random(), prfSeedWithoutUV: .random()) }
    return try StoredCredential(
        id: id, rpID: rpID, userHandle: userHandle, userName: "alice@\(rpID)",
        userDisplayName: "Alice",
        key: await store.makeKey(
            CredentialKeyRequest(
                credentialID: id, rpID: rpID, algorithm: key?.algorithm ?? .es256, importing: secrets)),
        profile: "platform", backupEligible: true, backupState: true, discoverable: true, createdAt: createdAt)
}

/// The store fixture of the file-store tests: a `FileCredentialStore` at `store` in the test's
/// `TemporaryDirectory.current` (the `.temporaryDirectory` trait, which removes it), holding one
/// new credential of `rpID`.
func fileStoreWithACredential(rpID: String = "example.com") async throws
    -> (path: String, store: FileCredentialStore, credential: StoredCredential)
{
    let path = try TemporaryDirectory.current.appending("store")
    let store = try await FileCredentialStore(directory: path)
    let credential = try await makeCredential(in: store, rpID: rpID)
    try await store.add(credential)
    return (path, store, credential)
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
