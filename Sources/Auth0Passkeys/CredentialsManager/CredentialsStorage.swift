import Synchronization

/// Where a ``CredentialsManager`` keeps its entries: the main credentials under the manager's
/// store key and one entry per API audience (and scope).
///
/// Entries are opaque bytes (JSON: the main entry is the encoding of ``Credentials``, the others
/// of ``APICredentials``). A conformer must make each write atomic (a reader sees the old entry
/// or the new one), and must be safe to call from any thread. It may block: the manager calls
/// it on a thread of its own, never on Swift's concurrency pool.
/// ``FileCredentialsStorage`` is the default; ``InMemoryCredentialsStorage`` keeps nothing
/// after the process ends.
public protocol CredentialsStorage: Sendable {
    /// The entry stored under `key`, or `nil`.
    ///
    /// - Parameter key: the entry's key.
    /// - Returns: the bytes, or `nil` when there is no entry.
    /// - Throws: when the entry exists but cannot be read.
    func entry(forKey key: String) throws -> [UInt8]?

    /// Stores `value` under `key`, replacing any entry, atomically.
    ///
    /// - Parameters:
    ///   - value: the bytes.
    ///   - key: the entry's key.
    /// - Throws: when the entry cannot be written; the old one is then unchanged.
    func setEntry(_ value: [UInt8], forKey key: String) throws

    /// Deletes the entry under `key`; deleting a missing entry succeeds.
    ///
    /// - Parameter key: the entry's key.
    /// - Throws: when the entry cannot be deleted.
    func deleteEntry(forKey key: String) throws

    /// Deletes every entry.
    ///
    /// - Throws: when an entry cannot be deleted.
    func deleteAllEntries() throws

    /// The keys of the stored entries, sorted.
    ///
    /// - Throws: when the storage cannot be listed.
    func entryKeys() throws -> [String]

    /// Takes the storage's lock for a read, a renewal over the network and a write that no
    /// other process may interleave with: two processes renewing with one rotating refresh
    /// token would spend it twice, and the server revokes the family of a replayed token
    /// (RFC 9700 §4.14.2), leaving no session at all. It may block until the other releases.
    /// The default lock is no lock: a storage that lives in one process needs none.
    ///
    /// - Returns: the lock, held until ``CredentialsStorageLock/release()``.
    /// - Throws: when the lock cannot be taken.
    func lock() throws -> CredentialsStorageLock
}

extension CredentialsStorage {
    /// No lock.
    public func lock() throws -> CredentialsStorageLock {
        CredentialsStorageLock {}
    }
}

/// A storage's lock, held until released (or until its process ends).
public final class CredentialsStorageLock: Sendable {
    private let releasing: Mutex<(@Sendable () -> Void)?>

    /// A lock that `release` lets go of.
    ///
    /// - Parameter release: what releases it; called at most once.
    public init(release: @escaping @Sendable () -> Void) {
        releasing = Mutex(release)
    }

    /// Releases the lock; later calls do nothing.
    public func release() {
        releasing.withLock { release in
            let pending = release
            release = nil
            return pending
        }?()
    }

    deinit { release() }
}
