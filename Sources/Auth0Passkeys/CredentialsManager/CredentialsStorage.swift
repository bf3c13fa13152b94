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
}
