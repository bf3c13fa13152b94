/// How a ceremony involves the user (Credential Management Level 1 §2.3.2
/// `CredentialMediationRequirement`; WebAuthn L3 §5.1.3, §5.1.4).
///
/// Only `conditional` changes what a ``WebAuthnClient`` does: a conditional create is made
/// without user presence (WebAuthn L3 §5.1.3: the user is not asked; the UP flag is clear). A
/// conditional get is a request that waits until the person picks a passkey; whoever offers the
/// choice (the control server's page bridge) waits, and the ceremony is an ordinary one.
public enum CredentialMediation: String, Sendable, Hashable, CaseIterable {
    /// No user interaction; nothing is created or asserted without it.
    case silent
    /// The client decides (the default).
    case optional
    /// The ceremony waits for, or happens beside, what the person is doing (autofill, or a
    /// passkey made after a password sign-in).
    case conditional
    /// The user is always asked.
    case required
}
