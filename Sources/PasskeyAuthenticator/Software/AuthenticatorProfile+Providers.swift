import WebAuthn

extension AuthenticatorProfile {
    /// Apple's iCloud Keychain (Apple Passwords) as a relying party sees it: synced passkeys with
    /// `none` attestation and the all-zero AAGUID (Apple's platform authenticator does not identify
    /// itself in `none` attestation), BE and BS set, counter 0, user verified (Face ID or Touch ID).
    /// The same behaviour as ``platform``, under the provider's name.
    public static let iCloudKeychain = provider(name: "icloud-keychain", aaguid: .zero, algorithms: [.es256])

    /// Google Password Manager: synced passkeys, `none` attestation, AAGUID
    /// `ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4` (passkeydeveloper/passkey-authenticator-aaguids,
    /// `aaguid.json`, the community list of provider AAGUIDs), BE and BS set, counter 0.
    public static let googlePasswordManager = provider(
        name: "google-password-manager", aaguid: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4", algorithms: [.es256])

    /// 1Password as a passkey provider: AAGUID `bada5566-a7aa-401f-bd96-45619a55120d` (same list),
    /// `none` attestation, BE and BS set, counter 0, ES256 and EdDSA.
    public static let onePassword = provider(
        name: "1password", aaguid: "bada5566-a7aa-401f-bd96-45619a55120d", algorithms: [.es256, .eddsa])

    /// Bitwarden as a passkey provider: AAGUID `d548826e-79b4-db40-a3d8-11116f7e8349` (same list),
    /// `none` attestation, BE and BS set, counter 0, ES256.
    public static let bitwarden = provider(
        name: "bitwarden", aaguid: "d548826e-79b4-db40-a3d8-11116f7e8349", algorithms: [.es256])

    /// The passkey providers people meet in the wild, by name.
    public static let providers: [AuthenticatorProfile] = [
        iCloudKeychain, googlePasswordManager, onePassword, bitwarden,
    ]

    /// A synced passkey provider: a platform credential provider (`internal`, `hybrid`),
    /// discoverable credentials, user verification, BE and BS set, no counter, `none` attestation.
    private static func provider(name: String, aaguid: AAGUID, algorithms: [COSEAlgorithm]) -> AuthenticatorProfile {
        AuthenticatorProfile(
            name: name, aaguid: aaguid, attachment: .platform, transports: [.internal, .hybrid],
            algorithms: algorithms, alwaysDiscoverable: true, alwaysVerifiesUser: true, backedUp: true,
            countsSignatures: false, selfAttests: false)
    }

    private static func provider(name: String, aaguid: String, algorithms: [COSEAlgorithm]) -> AuthenticatorProfile {
        // Constant, well-formed UUID literals from the list cited above.
        provider(name: name, aaguid: try! AAGUID(uuidString: aaguid), algorithms: algorithms)
    }
}
