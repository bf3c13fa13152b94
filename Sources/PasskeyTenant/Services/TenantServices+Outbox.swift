import FoundationEssentials
import WebAuthn

extension TenantServices {
    /// Keeps `message` in the local outbox of its recipient, where a test reads it
    /// (``outbox(to:)``), instead of sending it: the local tenant has no mail or SMS provider.
    ///
    /// Every instance on one database sees it: the mailbox is a row that ``TenantStore/update(_:key:at:_:)``
    /// changes under its lock, or a new one when there is none (two first messages at once: the
    /// one that loses the insert appends to the other's).
    ///
    /// With an outbox file (``OutboxConfiguration/file``), the message is appended to it too, once
    /// the store has it.
    ///
    /// - Throws: `server_error` when the store or the outbox file fails.
    func send(_ message: OutboxMessage) async throws(TenantError) {
        try await keep(message)
        try await outboxFile?.append(message)
    }

    /// Keeps `message` in its recipient's mailbox in the store.
    private func keep(_ message: OutboxMessage) async throws(TenantError) {
        let key = OutboxMailbox.key(message.to)
        for _ in 0..<2 {
            let now = clock.now()
            if try await store.update(OutboxMailbox.self, key: key, at: now, { $0.append(message) }) != nil {
                return
            }
            var mailbox = OutboxMailbox(messages: [], expiresAt: now)
            mailbox.append(message)
            if try await store.insert(mailbox, key: key, expiring: now) { return }
        }
        throw TenantError(.serverError, status: 500, "outbox: the mailbox could not be written")
    }

    /// The live messages sent to `recipient` (any case), oldest first.
    ///
    /// - Throws: `server_error` when the store fails.
    func outbox(to recipient: String) async throws(TenantError) -> [OutboxMessage] {
        try await store.peek(OutboxMailbox.self, key: OutboxMailbox.key(recipient), at: clock.now())?.messages ?? []
    }

    /// A new outbox message's ID: `msg_` and 16 random bytes in base64url.
    static func newMessageID() -> String {
        "msg_" + Base64URL.encode(SecureRandom.bytes(16))
    }
}
