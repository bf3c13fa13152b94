/// What a pinUvAuthToken may be used for (CTAP 2.1 §6.5.5.7 "permissions"): the platform asks
/// for them in `getPinUvAuthTokenUsingPinWithPermissions`, and each command checks its own.
///
/// ```
/// permissions = uint   ; bit 0x01 mc, 0x02 ga, 0x04 cm, 0x08 be, 0x10 lbw, 0x20 acfg
/// ```
///
/// A token from the legacy `getPinToken` has ``makeCredential`` and ``getAssertion``.
public struct CTAPPermissions: OptionSet, Sendable, Hashable {
    /// The permission bits.
    public let rawValue: UInt8

    /// Wraps permission bits.
    ///
    /// - Parameter rawValue: the bits, as the `permissions` parameter carries them.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// `mc`: authenticatorMakeCredential (§6.1), bound to one RP ID.
    public static let makeCredential = CTAPPermissions(rawValue: 0x01)
    /// `ga`: authenticatorGetAssertion (§6.2), bound to one RP ID.
    public static let getAssertion = CTAPPermissions(rawValue: 0x02)
    /// `cm`: authenticatorCredentialManagement (§6.8), for every RP or the one bound.
    public static let credentialManagement = CTAPPermissions(rawValue: 0x04)
    /// `be`: authenticatorBioEnrollment (§6.7); this device has no sensor to enroll.
    public static let bioEnrollment = CTAPPermissions(rawValue: 0x08)
    /// `lbw`: writing the large-blob array (§6.10).
    public static let largeBlobWrite = CTAPPermissions(rawValue: 0x10)
    /// `acfg`: authenticatorConfig (§6.11).
    public static let authenticatorConfig = CTAPPermissions(rawValue: 0x20)
}
