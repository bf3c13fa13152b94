/// An authenticator's status in FIDO metadata (FIDO MDS 3.0 §3.1.4 `AuthenticatorStatus`): an
/// open set of strings (see ``OpenStringEnumeration``).
public typealias AuthenticatorStatus = OpenStringEnumeration<AuthenticatorStatusValues>

extension AuthenticatorStatus {
    public static var notFIDOCertified: Self { Self(rawValue: "NOT_FIDO_CERTIFIED") }
    public static var fidoCertified: Self { Self(rawValue: "FIDO_CERTIFIED") }
    public static var userVerificationBypass: Self { Self(rawValue: "USER_VERIFICATION_BYPASS") }
    public static var attestationKeyCompromise: Self { Self(rawValue: "ATTESTATION_KEY_COMPROMISE") }
    public static var userKeyRemoteCompromise: Self { Self(rawValue: "USER_KEY_REMOTE_COMPROMISE") }
    public static var userKeyPhysicalCompromise: Self { Self(rawValue: "USER_KEY_PHYSICAL_COMPROMISE") }
    public static var updateAvailable: Self { Self(rawValue: "UPDATE_AVAILABLE") }
    public static var revoked: Self { Self(rawValue: "REVOKED") }

    /// Whether a relying party must not trust the authenticator's attestation any more: it was
    /// revoked, or its keys or user verification are known to be compromised (§3.1.4).
    public var isCompromised: Bool {
        [
            .revoked, .userVerificationBypass, .attestationKeyCompromise, .userKeyRemoteCompromise,
            .userKeyPhysicalCompromise,
        ].contains(self)
    }
}
