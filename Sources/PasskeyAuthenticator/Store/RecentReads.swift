import BlockingIO
import Synchronization

/// The credentials a ``FileCredentialStore`` read lately, each with the identity of the file it
/// was read from, so a credential whose file is unchanged is not decoded and checked again
/// (issue 13: a `get` read, decoded and checked its file each time).
///
/// A credential file is replaced by rename and never edited in place by the store, so a file
/// with the inode, change time and size of the one read holds the same bytes; a file changed in
/// any way (by another instance, another process, or by hand) has another identity and is read
/// again. `Sendable`: the table is behind a mutex, so the store's fast path reads it off its
/// executor. At most ``capacity`` are kept; a full table starts over.
final class RecentReads: Sendable {
    /// What tells one version of a credential file from another.
    struct FileIdentity: Equatable, Sendable {
        let inode: UInt64
        let changed: Int64
        let size: Int

        init(_ status: StoreFile.Status) {
            inode = status.inode
            changed = status.changed
            size = status.size
        }
    }

    /// How many credentials are kept.
    let capacity: Int
    private let entries = Mutex<[String: (file: FileIdentity, credential: StoredCredential)]>([:])

    init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    /// The credential read from the file `name`, if that file is still the one it was read from.
    func credential(_ name: String, ifStill file: FileIdentity) -> StoredCredential? {
        entries.withLock { entries in
            guard let entry = entries[name], entry.file == file else {
                return nil
            }
            return entry.credential
        }
    }

    /// Keeps the credential just read from the file `name`, whose identity was `file` before it
    /// was read (a file replaced between the two is only read again next time).
    func remember(_ credential: StoredCredential, readFrom name: String, file: FileIdentity) {
        entries.withLock { entries in
            if entries.count >= capacity {
                entries.removeAll(keepingCapacity: true)
            }
            entries[name] = (file, credential)
        }
    }

    /// Forgets the file `name`, which is gone.
    func forget(_ name: String) {
        _ = entries.withLock { $0.removeValue(forKey: name) }
    }
}
