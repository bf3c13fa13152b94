/// Which credential the (simulated) user picks when several match an assertion request, the
/// choice a real authenticator's account picker would make. There is never a prompt.
public enum AccountChoice: Sendable, Hashable {
    /// The most recently created matching credential.
    case mostRecent
    /// The most recent matching credential of the user with this account name (`user.name`).
    case user(String)
    /// The credential with this ID.
    case credential([UInt8])
}
