public import WebAuthn

/// How a ``SoftwareAuthenticator`` behaves: which kind of real authenticator it stands in for.
///
/// Two are built in (DESIGN.md: "The software authenticator's defaults"), and a library user may
/// build others:
///
/// | | ``platform`` | ``securityKey`` |
/// |---|---|---|
/// | models | a synced platform passkey (iCloud Keychain) | a FIDO2 security key |
/// | algorithms | ES256, EdDSA | ES256, EdDSA, RS256, PS256 (RSA-2048) |
/// | discoverable | always | when the RP asks |
/// | attachment, transports | `platform`; `internal`, `hybrid` | `cross-platform`; `usb` |
/// | UV | always | when the RP asks |
/// | BE, BS | set | clear |
/// | sign count | always 0; nothing written on an assertion | per credential, durable before signing |
/// | attestation | `none`, zero AAGUID | `packed` self attestation when asked, own AAGUID |
public struct AuthenticatorProfile: Sendable, Hashable {
    /// The name the store records and `--profile` takes.
    public var name: String
    /// The AAGUID written into attested credential data.
    public var aaguid: AAGUID
    /// The attachment a client reports.
    public var attachment: AuthenticatorAttachment
    /// The transports a client reports.
    public var transports: [AuthenticatorTransport]
    /// The supported algorithms, most preferred first; negotiation takes the RP's first entry
    /// found here (WebAuthn L3 §5.1.3 step 10, CTAP 2.1 §6.1.2 step 3).
    public var algorithms: [COSEAlgorithm]
    /// Whether every credential is discoverable, whatever the RP asks (as synced passkeys are).
    public var alwaysDiscoverable: Bool
    /// Whether it verifies the user on every ceremony, even when not asked (as Face ID does).
    public var alwaysVerifiesUser: Bool
    /// The BE flag of every new credential: it may be backed up (WebAuthn L3 §6.1.3).
    public var backupEligible: Bool
    /// The BS flag of every new credential: it is backed up.
    public var backupState: Bool
    /// Whether each credential has its own signature counter, advanced durably before each
    /// signature (WebAuthn L3 §6.1.1); `false` keeps it at 0, as synced passkeys do.
    public var countsSignatures: Bool
    /// Whether it signs `packed` self attestation (WebAuthn L3 §8.2) when the client does not
    /// ask for `none`; `false` always answers `none`.
    public var selfAttests: Bool
    /// Whether it can store discoverable credentials; a client asked for one by an authenticator
    /// that cannot refuses (WebAuthn L3 §5.1.3 step 20, the W3C virtual authenticator's
    /// `hasResidentKey`).
    public var supportsResidentKeys = true
    /// Whether it can verify the user; a client that requires verification of one that cannot
    /// refuses (WebAuthn L3 §6.2.2, the W3C virtual authenticator's `hasUserVerification`).
    public var supportsUserVerification = true
    /// The authenticator extensions it supports (CTAP 2.1 §12): `hmac-secret`, which the `prf`
    /// client extension runs on, or none.
    public var extensions: [String] = ["hmac-secret"]

    /// Whether it supports the hmac-secret extension (CTAP 2.1 §12.5).
    public var supportsHMACSecret: Bool { extensions.contains("hmac-secret") }

    /// Describes a profile.
    ///
    /// - Parameters:
    ///   - name: the profile's name.
    ///   - aaguid: the AAGUID.
    ///   - attachment: the attachment.
    ///   - transports: the transports.
    ///   - algorithms: the supported algorithms, most preferred first.
    ///   - alwaysDiscoverable: whether every credential is discoverable.
    ///   - alwaysVerifiesUser: whether the user is verified even when not asked.
    ///   - backedUp: the BE and BS flags; set them apart with ``backupEligible`` and ``backupState``.
    ///   - countsSignatures: whether each credential counts its signatures.
    ///   - selfAttests: whether it signs `packed` self attestation when asked for attestation.
    public init(
        name: String, aaguid: AAGUID, attachment: AuthenticatorAttachment, transports: [AuthenticatorTransport],
        algorithms: [COSEAlgorithm], alwaysDiscoverable: Bool, alwaysVerifiesUser: Bool, backedUp: Bool,
        countsSignatures: Bool, selfAttests: Bool
    ) {
        self.name = name
        self.aaguid = aaguid
        self.attachment = attachment
        self.transports = transports
        self.algorithms = algorithms
        self.alwaysDiscoverable = alwaysDiscoverable
        self.alwaysVerifiesUser = alwaysVerifiesUser
        self.backupEligible = backedUp
        self.backupState = backedUp
        self.countsSignatures = countsSignatures
        self.selfAttests = selfAttests
    }

    /// A synced platform passkey, the default.
    public static let platform = AuthenticatorProfile(
        name: "platform", aaguid: .zero, attachment: .platform, transports: [.internal, .hybrid],
        algorithms: [.es256, .eddsa], alwaysDiscoverable: true, alwaysVerifiesUser: true, backedUp: true,
        countsSignatures: false, selfAttests: false)

    /// A FIDO2 security key with a counter per credential and self attestation.
    public static let securityKey = AuthenticatorProfile(
        name: "security-key", aaguid: securityKeyAAGUID, attachment: .crossPlatform, transports: [.usb],
        algorithms: [.es256, .eddsa, .rs256, .ps256], alwaysDiscoverable: false, alwaysVerifiesUser: false,
        backedUp: false, countsSignatures: true, selfAttests: true)

    /// The built-in profiles, by name: ``platform``, ``securityKey`` and the passkey
    /// ``providers``.
    public static let builtIn: [String: AuthenticatorProfile] = Dictionary(
        uniqueKeysWithValues: ([platform, securityKey] + providers).map { ($0.name, $0) })

    /// SoftPasskey's security-key model: a random version-4 UUID chosen once for this project.
    private static let securityKeyAAGUID: AAGUID = {
        // A constant, well-formed UUID literal.
        try! AAGUID(uuidString: "5e6a1b8c-2f3d-4c71-9a0e-7b4d3c2e1f60")
    }()
}
