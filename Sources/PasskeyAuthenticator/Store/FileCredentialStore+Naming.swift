import BlockingIO
import FoundationEssentials
import WebAuthn

/// File naming: a credential file is `base64url(id).json`, written as `{ "version", "credential" }`;
/// killed writers leave `.tmp-…` files, which are removed under the exclusive lock.
extension FileCredentialStore {
    /// The longest credential ID whose base64url file name fits in 255 bytes.
    static let maximumIDLength = 186

    func fileName(checking credential: StoredCredential) throws(StoreError) -> String {
        guard let name = Self.fileName(credential.id) else {
            throw StoreError(
                .invalidCredential,
                "a credential ID must be 1 to \(Self.maximumIDLength) bytes, not \(credential.id.count)")
        }
        do {
            try files.check(credential)
        } catch {
            throw StoreError(.invalidCredential, "\(credential): \(error.reason)")
        }
        return name
    }

    /// `base64url(id).json`, or `nil` for an ID no credential file can be named after.
    static func fileName(_ id: [UInt8]) -> String? {
        (1...maximumIDLength).contains(id.count) ? Base64URL.encode(id) + ".json" : nil
    }

    static func isCredentialFileName(_ name: String) -> Bool {
        name.hasSuffix(".json") && !name.hasPrefix(".")
    }

    static func encode(_ credential: StoredCredential) throws(StoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return Array(try encoder.encode(CredentialFile(version: formatVersion, credential: credential)))
        } catch {
            throw StoreError(.invalidCredential, "\(credential) does not encode as JSON")
        }
    }

    static func removeTemporaryFiles(in directory: StoreFile) throws(StoreError) {
        for name in try directory.entries() where name.hasPrefix(StoreFile.temporaryPrefix) {
            try directory.remove(name)
        }
    }

    static func sorted(_ problems: [String: StoreError]) -> [StoreError] {
        problems.sorted { $0.key < $1.key }.map(\.value)
    }

    static func notFound(_ id: [UInt8]) -> StoreError {
        StoreError(.notFound, "no credential has ID \(Base64URL.encode(id))")
    }
}
