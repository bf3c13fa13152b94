/// An authenticator's status in FIDO metadata (FIDO MDS 3.0 §3.1.4 `AuthenticatorStatus`).
public struct AuthenticatorStatus: OpenStringEnumeration {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let notFIDOCertified = Self(rawValue: "NOT_FIDO_CERTIFIED")
    public static let fidoCertified = Self(rawValue: "FIDO_CERTIFIED")
    public static let userVerificationBypass = Self(rawValue: "USER_VERIFICATION_BYPASS")
    public static let attestationKeyCompromise = Self(rawValue: "ATTESTATION_KEY_COMPROMISE")
    public static let userKeyRemoteCompromise = Self(rawValue: "USER_KEY_REMOTE_COMPROMISE")
    public static let userKeyPhysicalCompromise = Self(rawValue: "USER_KEY_PHYSICAL_COMPROMISE")
    public static let updateAvailable = Self(rawValue: "UPDATE_AVAILABLE")
    public static let revoked = Self(rawValue: "REVOKED")

    /// Whether a relying party must not trust the authenticator's attestation any more: it was
    /// revoked, or its keys or user verification are known to be compromised (§3.1.4).
    public var isCompromised: Bool {
        [
            .revoked, .userVerificationBypass, .attestationKeyCompromise, .userKeyRemoteCompromise,
            .userKeyPhysicalCompromise,
        ].contains(self)
    }
}
