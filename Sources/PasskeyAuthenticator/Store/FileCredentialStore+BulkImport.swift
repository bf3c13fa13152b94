import BlockingIO
import FoundationEssentials
import WebAuthn

/// The bulk path: many new credentials stored with one wait for the disk, rather than the
/// `fsync`s of one ``FileCredentialStore/add(_:)`` each.
extension FileCredentialStore {
    /// Stores many new credentials at once, durably, with one flush of the file system for all of
    /// them: what fills a large store (a migration from another store, a test or bench store of a
    /// million passkeys), where ``add(_:)`` would wait for the disk twice per credential.
    ///
    /// Each record is checked as ``add(_:)`` checks it. Then, under the exclusive lock, each ID is
    /// checked to be new; the files are written under temporary names, the file system is flushed
    /// once (`syncfs`), the files are renamed to their names and the directory is `fsync`ed (the
    /// atomicity of DESIGN.md's file-backed store, for the whole batch); and the index journal
    /// gets the batch's records in one write. A crash during the call leaves each credential of
    /// the batch whole or absent, and the journal marked behind, so the next instance checks it
    /// against the directory; every credential stored before is untouched.
    ///
    /// Every file's bytes are held at once: pass batches of some tens of thousands.
    ///
    /// - Parameter credentials: the records, with distinct IDs, each holding blobs this store made
    ///   (``makeKey(_:)``).
    /// - Throws: `StoreError` with `duplicate` when an ID is stored already or comes twice in
    ///   `credentials`, `invalid-credential` when a record's ID cannot name a file or its blobs are
    ///   not this store's for it, `disk-full`, `locked` or `io`. On any of these no credential of
    ///   the batch is stored (when only the directory's final `fsync` fails, they are in place but
    ///   may not survive a crash), and the store is otherwise unchanged.
    public func add(contentsOf credentials: [StoredCredential]) throws(StoreError) {
        guard !credentials.isEmpty else {
            return
        }
        var files: [(name: String, bytes: [UInt8])] = []
        files.reserveCapacity(credentials.count)
        var names = Set<String>(minimumCapacity: credentials.count)
        for credential in credentials {
            let name = try fileName(checking: credential)
            guard names.insert(name).inserted else {
                throw StoreError(
                    .duplicate, "credential ID \(Base64URL.encode(credential.id)) comes twice in one import")
            }
            files.append((name, try Self.encode(credential)))
        }
        try changing { () throws(StoreError) in
            for file in files {
                guard try !self.files.credentials.contains(file.name) else {
                    throw StoreError(
                        .duplicate, "a credential with this ID is already stored",
                        file: self.files.credentials.path + "/" + file.name)
                }
            }
            try self.files.credentials.createAll(files)
            return ((), .addedAll(credentials.map { CredentialSummary($0) }))
        }
    }
}
