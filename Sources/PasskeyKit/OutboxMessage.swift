/// A message a local tenant would have sent by email or SMS, as its test outbox gives it (`GET
/// /test/outbox?to=ADDRESS` of `passkey tenant serve --test-outbox`; **[local]**, Auth0 has no
/// outbox): a passwordless code or magic link, a password-reset ticket, an organization invitation.
public struct OutboxMessage: Sendable, Hashable, Decodable {
    /// `msg_…`.
    public let id: String
    /// The recipient: the email address or phone number as the request gave it.
    public let to: String
    /// `email` or `sms`.
    public let channel: String
    /// `passwordless_code`, `passwordless_link`, `password_reset`, `invitation`.
    public let kind: String
    /// The text a user would read.
    public let text: String
    /// The one-time code, when the message carries one.
    public let code: String?
    /// The link, when the message carries one.
    public let link: String?
    /// The application the message was sent for.
    public let clientID: String?
    /// When it was sent, RFC 3339.
    public let createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, to, channel, kind, text, code, link
        case clientID = "client_id"
        case createdAt = "created_at"
    }
}
