import BlockingIO
import Synchronization

/// The credentials a ``FileCredentialStore`` read lately, so a credential whose file has not
/// changed is not read, decoded and checked again (issue 13), and so a plain `get` can have it
/// without a hop to the store's executor (issue 30).
///
/// Two ways tell a credential still as read, one per path:
/// - On the store's executor, a read compares the file's identity (inode, change time, size: one
///   `fstatat`) with the one remembered: the store replaces a file only whole, by rename, so an
///   unchanged identity means the same bytes.
/// - Off it (``credentialsNow(_:)``, on the caller's thread, the concurrency pool), no call may
///   wait, so no `fstatat`: an inotify watch on `credentials/` (BlockingIO's `DirectoryWatch`,
///   inotify(7)) is drained instead, never waiting. The kernel queues an event inside every call
///   that changes an entry, by any process, before it returns; each event drained forgets its
///   entry's credential, so after a drain what is left was read after the last finished change.
///   Without a watch (none on a network filesystem or FUSE, where inotify misses other hosts'
///   changes: statfs(2); the system refused one: `EMFILE`, `ENOSPC`; or it ended) nothing is
///   served off the executor, and the store's ordinary path answers.
///
/// A read on the executor races with changes: its `fstatat`, its read and
/// ``remember(_:readFrom:file:since:)`` are three steps, and an event for the file may be drained
/// by another thread between them (when there was nothing yet to forget). So every event drained takes the next number of a
/// sequence, recorded against its name (an `IN_Q_OVERFLOW`, or the directory itself moved or
/// removed, against every name); a read takes a ``mark()`` before its `fstatat`, and its
/// credential is kept only if no event for its name came after that mark.
///
/// `Sendable`: all of it, the watch included, is behind one mutex. At most ``capacity``
/// credentials and ``capacity`` changed names are kept; a full table starts over (the names, by
/// counting every name changed at that point).
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

    /// A point in the sequence of changes, taken before a file's status is read.
    struct Mark: Sendable {
        fileprivate let sequence: UInt64
    }

    private struct State {
        /// The watch on `credentials/`, or `nil` when there is none (or no longer one).
        var watch: DirectoryWatch<StoreError>?
        var entries: [String: (file: FileIdentity, credential: StoredCredential)] = [:]
        /// The number of the last change drained.
        var sequence: UInt64 = 0
        /// The number of each name's last change, for names changed since ``everything``.
        var lastChange: [String: UInt64] = [:]
        /// The number of the last change of every name.
        var everything: UInt64 = 0
    }

    /// How many credentials, and how many changed names, are kept.
    let capacity: Int
    private let state: Mutex<State>

    /// Keeps reads of the files of a directory that `watch` watches, if any.
    ///
    /// - Parameters:
    ///   - watch: the watch on `credentials/`; `nil` when the system gave none.
    ///   - capacity: how many credentials, and how many changed names, are kept.
    init(watching watch: DirectoryWatch<StoreError>?, capacity: Int = 1024) {
        self.capacity = capacity
        state = Mutex(State(watch: watch))
    }

    /// The credentials read from the files `names`, in order, if none of those files changed
    /// since; `nil` when one is not at hand, or there is no watch. Never waits: reads the watch's
    /// events until none is left, then answers from memory.
    func credentialsNow(_ names: [String]) -> [StoredCredential]? {
        state.withLock { state in
            drain(&state)
            guard state.watch != nil else {
                return nil
            }
            var found: [StoredCredential] = []
            found.reserveCapacity(names.count)
            for name in names {
                guard let entry = state.entries[name] else {
                    return nil
                }
                found.append(entry.credential)
            }
            return found
        }
    }

    /// Where the sequence of changes stands, all events drained: taken by a read before its
    /// `fstatat`.
    func mark() -> Mark {
        state.withLock { state in
            drain(&state)
            return Mark(sequence: state.sequence)
        }
    }

    /// The credential read from the file `name`, if that file is still the one it was read from
    /// (and no event since said otherwise). Called on the store's executor after ``mark()``.
    func credential(_ name: String, ifStill file: FileIdentity) -> StoredCredential? {
        state.withLock { state in
            guard let entry = state.entries[name], entry.file == file else {
                return nil
            }
            return entry.credential
        }
    }

    /// Keeps the credential just read from the file `name`, whose identity was `file` at `mark`,
    /// unless the file changed after `mark` (it is then only read again next time).
    func remember(_ credential: StoredCredential, readFrom name: String, file: FileIdentity, since mark: Mark) {
        state.withLock { state in
            guard max(state.lastChange[name] ?? 0, state.everything) <= mark.sequence else {
                return
            }
            if state.entries.count >= capacity {
                state.entries.removeAll(keepingCapacity: true)
            }
            state.entries[name] = (file, credential)
        }
    }

    /// Forgets the file `name`, which is gone.
    func forget(_ name: String) {
        _ = state.withLock { $0.entries.removeValue(forKey: name) }
    }

    /// Applies every event queued: each forgets what it may have made stale. A watch that fails
    /// or ends is dropped, with everything read through it.
    private func drain(_ state: inout State) {
        guard let watch = state.watch else {
            return
        }
        var ended = false
        do throws(StoreError) {
            try watch.drain { change in
                state.sequence += 1
                switch change {
                case .entry(let name):
                    state.entries[name] = nil
                    if state.lastChange.count >= capacity {
                        state.lastChange.removeAll(keepingCapacity: true)
                        state.everything = state.sequence
                    }
                    state.lastChange[name] = state.sequence
                case .any, .ended:
                    state.entries.removeAll()
                    state.lastChange.removeAll()
                    state.everything = state.sequence
                    ended = ended || change == .ended
                }
            }
        } catch {
            ended = true
        }
        if ended {
            // Reads under way when it ended are not kept; later ones are, checked by identity.
            state.watch = nil
            state.entries.removeAll()
            state.sequence += 1
            state.everything = state.sequence
        }
    }
}
