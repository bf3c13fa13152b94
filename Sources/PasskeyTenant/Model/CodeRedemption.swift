/// What presenting an authorization code found (RFC 6749 §4.1.2, §10.5).
enum CodeRedemption: Sendable {
    /// A live code, now spent: its grant and the identifiers its tokens are issued with.
    case redeemed(AuthorizationCode, TokenIdentifiers)
    /// A code redeemed before: what it issued has been revoked.
    case replayed
    /// No such code, or an expired one.
    case unknown
}
