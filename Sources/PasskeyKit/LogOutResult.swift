/// What a logout did.
public struct LogOutResult: Sendable, Hashable {
    /// Whether there was a session to end.
    public let hadSession: Bool
    /// Whether its refresh token was revoked at the tenant.
    public let revoked: Bool
}
