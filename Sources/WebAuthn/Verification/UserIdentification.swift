/// When the relying party learnt who is signing in, which decides what WebAuthn L3 §7.2 step 6
/// demands of the response's user handle.
public enum UserIdentification: Sendable, Hashable {
    /// Before the ceremony (a username form, an existing session, usually with `allowCredentials`):
    /// the credential must be the user's, and a `userHandle`, when the response has one, must be
    /// the user's handle.
    case beforeCeremony
    /// By the response alone (a discoverable-credential login, no `allowCredentials`): the
    /// response must carry `userHandle`, and it must be the handle of the credential's owner.
    case byResponse
}
