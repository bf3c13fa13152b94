/// What attestation a relying party wants to receive (WebAuthn L3 §5.4.7).
///
/// ```
/// enum AttestationConveyancePreference { "none", "indirect", "direct", "enterprise" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public typealias AttestationConveyancePreference = OpenStringEnumeration<AttestationConveyancePreferenceValues>

extension AttestationConveyancePreference {
    /// No attestation: the client replaces any statement with `none` (the IDL's default).
    public static var none: Self { "none" }

    /// An attestation the client may anonymize.
    public static var indirect: Self { "indirect" }

    /// The authenticator's attestation statement, unchanged.
    public static var direct: Self { "direct" }

    /// An attestation that may identify the authenticator individually.
    public static var enterprise: Self { "enterprise" }
}
