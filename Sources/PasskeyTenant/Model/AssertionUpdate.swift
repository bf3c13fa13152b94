import FoundationEssentials

/// What a verified assertion changes in its credential's row (WebAuthn L3 §7.2 steps 21–22: the
/// stored signature counter and backup state), and when; stored by compare-and-set
/// (``TenantStore/recordAssertion(_:refresh:)``) against the counter the assertion was verified with.
struct AssertionUpdate: Sendable {
    /// The credential's ID.
    let credentialID: [UInt8]
    /// The stored counter the assertion was verified against.
    let previousSignCount: UInt32
    /// The assertion's counter.
    let signCount: UInt32
    /// The assertion's BS flag.
    let backedUp: Bool
    /// When the assertion was verified: the credential's `last_auth_at`.
    let time: Date
}
