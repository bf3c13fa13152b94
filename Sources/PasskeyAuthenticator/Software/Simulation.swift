/// A failure a ``SoftwareAuthenticator`` acts out on purpose, so tests can watch a client or a
/// relying party handle it (the CLI's `--simulate`).
///
/// The first three are the user's doing and surface as `NotAllowedError`; the last two are an
/// authenticator misbehaving, so the ceremony "succeeds" and the relying party must refuse it.
public enum Simulation: String, Sendable, Hashable, CaseIterable {
    /// The user cancels (`CTAP2_ERR_KEEPALIVE_CANCEL`).
    case cancel
    /// The user never acts (`CTAP2_ERR_USER_ACTION_TIMEOUT`), answered at once.
    case timeout
    /// Built-in user verification fails (`CTAP2_ERR_UV_INVALID`); a request that only prefers
    /// UV then goes on without it.
    case denyUV = "deny-uv"
    /// The response claims no user presence: UP (and UV) clear in the signed flags.
    case noPresence = "no-presence"
    /// The signature does not verify: one bit of it is flipped after signing.
    case bogusSignature = "bogus-signature"
}
