import Synchronization

/// Credentials kept in memory only, for one process: a server holding a session per request, or
/// a test.
public final class InMemoryCredentialsStorage: CredentialsStorage {
    private let entries = Mutex<[String: [UInt8]]>([:])

    /// Creates an empty storage.
    public init() {}

    public func entry(forKey key: String) -> [UInt8]? {
        entries.withLock { $0[key] }
    }

    public func setEntry(_ value: [UInt8], forKey key: String) {
        entries.withLock { $0[key] = value }
    }

    public func deleteEntry(forKey key: String) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    public func deleteAllEntries() {
        entries.withLock { $0.removeAll() }
    }

    public func entryKeys() -> [String] {
        entries.withLock { $0.keys.sorted() }
    }
}
