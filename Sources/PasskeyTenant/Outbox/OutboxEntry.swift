import FoundationEssentials

/// **[local]** One ``OutboxMessage`` as `GET /test/outbox` answers it and the outbox file writes
/// it: the message's members in snake case, `created_at` in RFC 3339 (UTC), absent members left
/// out.
///
/// ```json
/// {"id": "msg_…", "to": "ada@example.com", "channel": "email", "kind": "passwordless_code",
///  "text": "Your verification code is 123456", "code": "123456", "client_id": "…",
///  "created_at": "2026-11-28T21:00:00Z"}
/// ```
struct OutboxEntry: Sendable, Encodable {
    let message: OutboxMessage

    enum CodingKeys: String, CodingKey {
        case id, to, channel, kind, text, code, link
        case clientID = "client_id"
        case createdAt = "created_at"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(message.id, forKey: .id)
        try container.encode(message.to, forKey: .to)
        try container.encode(message.channel, forKey: .channel)
        try container.encode(message.kind, forKey: .kind)
        try container.encode(message.text, forKey: .text)
        try container.encodeIfPresent(message.code, forKey: .code)
        try container.encodeIfPresent(message.link, forKey: .link)
        try container.encodeIfPresent(message.clientID, forKey: .clientID)
        try container.encode(message.createdAt.formatted(.iso8601), forKey: .createdAt)
    }
}
