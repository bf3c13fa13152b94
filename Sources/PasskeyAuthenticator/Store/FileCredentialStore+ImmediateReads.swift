import BlockingIO
import WebAuthn

/// The credentials at hand: those whose files are unchanged since this instance read them.
extension FileCredentialStore: ImmediateCredentialReads {
    /// The credential read last from the file `name`, if that file is unchanged since (same inode,
    /// change time and size: one `fstatat`, no lock, since a file is only ever replaced whole).
    nonisolated func recentCredential(_ name: String) -> StoredCredential? {
        guard let status = try? files.credentials.status(of: name) else {
            return nil
        }
        return recentReads.credential(name, ifStill: RecentReads.FileIdentity(status))
    }

    nonisolated func credentialsNow(ids: [[UInt8]]) -> [StoredCredential]? {
        var found: [StoredCredential] = []
        for id in ids {
            guard let name = Self.fileName(id) else {
                continue  // no credential can have this ID
            }
            guard let credential = recentCredential(name) else {
                return nil
            }
            found.append(credential)
        }
        return found
    }

    /// Listing needs the index, which lives on the store's executor.
    nonisolated func discoverableCredentialsNow(rpID: String) -> [StoredCredential]? {
        nil
    }

    nonisolated var sealedKeysNow: SealedKeys? { custody == nil ? keys : nil }
}
