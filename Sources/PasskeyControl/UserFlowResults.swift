import FoundationEssentials
public import WebAuthn

/// What a virtual user's signup or login answers: who signed in, with which passkey. Tokens are
/// not in it; ``TokenResult`` is asked for explicitly.
public struct SessionResult: Sendable, Hashable, Encodable {
    /// The user's ID at the tenant (`sub`).
    public let userId: String
    /// The user's email, if the ID token has one.
    public let email: String?
    /// The user's name, if the ID token has one.
    public let name: String?
    /// The passkey that was made or signed.
    public let credentialId: Base64URL
    /// The RP ID of the passkey.
    public let rpId: String
}

/// What an enrollment answers: the tenant's authentication method and the new passkey.
public struct EnrollmentResultValue: Sendable, Hashable, Encodable {
    /// The authentication method's ID at the tenant.
    public let methodId: String
    /// The new passkey.
    public let credentialId: Base64URL
}

/// An access token a control client asked for.
public struct TokenResult: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// The access token.
    public let accessToken: String
    /// `Bearer`.
    public let tokenType: String
    /// When it expires, in seconds since 1970.
    public let expiresAt: Int
    /// Its scopes.
    public let scope: String?

    public var description: String { "TokenResult(\(tokenType), <redacted>, expiresAt: \(expiresAt))" }

    init(accessToken: String, tokenType: String, expiresAt: Date, scope: String?) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = Int(expiresAt.timeIntervalSince1970)
        self.scope = scope
    }
}

/// A protected API's answer to a virtual user's call.
public struct APIResult: Sendable, Hashable, Encodable {
    /// The HTTP status.
    public let status: Int
    /// The body, as UTF-8 text.
    public let body: String
}

/// What a logout did.
public struct LogoutResultValue: Sendable, Hashable, Encodable {
    /// Whether there was a session.
    public let hadSession: Bool
    /// Whether its refresh token was revoked.
    public let revoked: Bool
}
