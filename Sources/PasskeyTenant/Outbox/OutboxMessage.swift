import FoundationEssentials

/// A message the tenant would send a user by email or SMS, kept in the local outbox instead
/// (``TenantServices/send(_:)``): a password-reset ticket, a passwordless code or link, an
/// organization invitation. The local tenant sends nothing; a test reads the outbox.
///
/// The message holds a secret (a code, a ticket link) in the clear: that is its purpose, and why
/// the outbox is served only behind a flag to the tests that ask for it.
struct OutboxMessage: Sendable, Hashable, Codable {
    /// How the message would travel.
    enum Channel: String, Sendable, Codable {
        case email, sms
    }

    /// What the message carries.
    enum Kind: String, Sendable, Codable {
        /// A `change_password` ticket: ``link`` resets the password.
        case passwordReset = "password_reset"
        /// A passwordless one-time code: ``code``.
        case passwordlessCode = "passwordless_code"
        /// A passwordless magic link: ``link``, with ``code`` in it.
        case passwordlessLink = "passwordless_link"
        /// An organization invitation: ``link`` opens its signup.
        case invitation
    }

    /// A random ID, `msg_…`.
    var id: String
    /// The recipient: an email address or a phone number, as the request gave it.
    var to: String
    var channel: Channel
    var kind: Kind
    /// The text a user would read.
    var text: String
    /// The one-time code, when the message carries one.
    var code: String?
    /// The link, when the message carries one.
    var link: String?
    /// The application (client ID) the message was sent for, when one asked.
    var clientID: String?
    /// When it was sent.
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, to, channel, kind, text, code, link
        case clientID = "client_id"
        case createdAt = "created_at"
    }
}
