/// What a relying party requires of attestation statements where their formats leave the choice
/// to it (WebAuthn L3 §8.4.1, §8.5).
public struct AttestationPolicy: Sendable, Hashable {
    /// Whether an `android-key` attestation may show the key's origin and purpose in the
    /// software-enforced authorization list alone, as a key outside the TEE does (§8.4: "the
    /// relying party's policy"). Off by default: only TEE-enforced keys are accepted.
    public var acceptsSoftwareEnforcedAndroidKeys: Bool
    /// How long before the verification time an `android-safetynet` response's `timestampMs`
    /// may lie (§8.5: "within an acceptable window").
    public var safetyNetMaximumAge: Duration
    /// How long after the verification time an `android-safetynet` `timestampMs` may lie, for
    /// clock skew between the phone and the relying party.
    public var safetyNetClockSkew: Duration

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - acceptsSoftwareEnforcedAndroidKeys: whether software-enforced Android keys are accepted.
    ///   - safetyNetMaximumAge: the oldest SafetyNet response accepted; one minute by default.
    ///   - safetyNetClockSkew: how far in the future a SafetyNet timestamp may be; none by default.
    public init(
        acceptsSoftwareEnforcedAndroidKeys: Bool = false, safetyNetMaximumAge: Duration = .seconds(60),
        safetyNetClockSkew: Duration = .zero
    ) {
        self.acceptsSoftwareEnforcedAndroidKeys = acceptsSoftwareEnforcedAndroidKeys
        self.safetyNetMaximumAge = safetyNetMaximumAge
        self.safetyNetClockSkew = safetyNetClockSkew
    }
}
