import FoundationEssentials
import WebAuthn

/// One recipient's messages in the local outbox, oldest first, as `outbox` keeps them
/// (``TenantSchema`` v10): under the SHA-256 digest of the recipient in lower case, until an hour
/// after the last message, so that every instance on one database serves the same outbox.
struct OutboxMailbox: Sendable, Hashable, Codable {
    /// At most this many messages are kept for one recipient; the oldest go first.
    static let capacity = 100
    /// How long a mailbox is kept after its last message.
    static let lifetime: TimeInterval = 3600

    var messages: [OutboxMessage]
    var expiresAt: Date

    /// The key of `recipient`'s mailbox: addresses differing only in case share one.
    static func key(_ recipient: String) -> StoredValue {
        .digest(SHA256Digest.hash(Array(recipient.lowercased().utf8)))
    }

    /// Adds `message`, dropping the oldest beyond ``capacity``, and keeps the mailbox an hour more.
    mutating func append(_ message: OutboxMessage) {
        messages.append(message)
        messages.removeFirst(max(0, messages.count - Self.capacity))
        expiresAt = message.createdAt.addingTimeInterval(Self.lifetime)
    }
}

extension OutboxMailbox: ExpiringRecord {
    /// `outbox`: the messages as JSON under the digest of the recipient.
    static let table = ExpiringTable(name: "outbox", key: "digest", columns: [("body", .text)])

    var storedValues: [StoredValue] { [.json(self)] }

    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError) {
        self = try values[0].decodedJSON(Self.self, what: "outbox")
    }
}
