import Auth0Passkeys
import Synchronization

/// `CredentialsStorage` implemented outside the package: entries in a dictionary, and a lock
/// that counts how often a renewal took it (`CredentialsStorage.lock()`).
final class LockingStorage: CredentialsStorage {
    private let entries = Mutex<[String: [UInt8]]>([:])
    private let taken = Mutex(0)

    /// How many times the lock was taken.
    var locks: Int { taken.withLock { $0 } }

    func entry(forKey key: String) -> [UInt8]? { entries.withLock { $0[key] } }

    func setEntry(_ value: [UInt8], forKey key: String) { entries.withLock { $0[key] = value } }

    func deleteEntry(forKey key: String) { _ = entries.withLock { $0.removeValue(forKey: key) } }

    func deleteAllEntries() { entries.withLock { $0.removeAll() } }

    func entryKeys() -> [String] { entries.withLock { $0.keys.sorted() } }

    func lock() -> CredentialsStorageLock {
        taken.withLock { $0 += 1 }
        return CredentialsStorageLock {}
    }
}
