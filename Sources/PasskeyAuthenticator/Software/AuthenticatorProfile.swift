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
/// | extensions | hmac-secret (`prf`) | hmac-secret, hmac-secret-mc, credProtect, credBlob, minPinLength, largeBlobKey |
///
/// ``cdp`` models Chrome's virtual authenticator, and ``providers`` the passkey providers met
/// in the wild.
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
    /// The authenticator extensions it supports (CTAP 2.1 §12, CTAP 2.2 §12.7): any of
    /// `hmac-secret` (which the `prf` client extension runs on), `hmac-secret-mc` (`prf` at
    /// creation), `credProtect`, `credBlob`, `minPinLength` and `largeBlobKey` (large blobs, which
    /// the `largeBlob` client extension runs on).
    public var extensions: [String] = ["hmac-secret"]
    /// The PIN length `minPinLength` reports (CTAP 2.1 §12.4).
    public var minPINLength: UInt8 = 4
    /// The relying parties `minPinLength` reports to (an authenticator's
    /// `minPinLengthRPIDs`); `nil` reports to every relying party that asks.
    public var minPINLengthRPIDs: [String]? = nil

    /// The longest serialized large-blob array kept (CTAP 2.1 §6.4 `maxSerializedLargeBlobArray`),
    /// when the profile supports `largeBlobKey`.
    public var maxSerializedLargeBlobArray = 4096

    /// The longest `credBlob` kept (CTAP 2.1 §12.2 `maxCredBlobLength`, at least 32).
    public static let maxCredBlobLength = 32
    /// Every authenticator extension this library implements.
    public static let allExtensions = [
        "credProtect", "credBlob", "minPinLength", "hmac-secret", "hmac-secret-mc", "largeBlobKey",
    ]

    /// Whether it signs `packed` attestation with a batch certificate (`x5c`, WebAuthn L3 §8.2)
    /// when the client does not ask for `none`: its store's (``BatchAttestationStore``) for this
    /// profile's AAGUID. Takes precedence over ``selfAttests``.
    public var batchAttests = false
    /// The relying parties it gives enterprise attestation to when they ask (CTAP 2.1 §7.1.1,
    /// vendor-facilitated: the list a vendor burns into the authenticator); with batch
    /// attestation, each gets a certificate that identifies this authenticator. Empty: none.
    public var enterpriseAttestationRPIDs: [String] = []
    /// Whether a new credential's ID is SHA-256 of its COSE public key, as Chrome's virtual
    /// authenticator makes them, instead of 16 random bytes.
    public var credentialIDFromPublicKey = false
    /// The counter of a new credential, reported in its registration; Chrome's virtual
    /// authenticator counts the registration as the first signature, so starts at 1.
    public var initialSignCount: UInt32 = 0

    /// Whether it supports the hmac-secret extension (CTAP 2.1 §12.5).
    public var supportsHMACSecret: Bool { extensions.contains("hmac-secret") }

    /// Whether it supports the authenticator extension `identifier`.
    ///
    /// - Parameter identifier: the extension's CTAP identifier.
    public func supports(_ identifier: String) -> Bool { extensions.contains(identifier) }

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
    public static let securityKey: AuthenticatorProfile = {
        var profile = AuthenticatorProfile(
            name: "security-key", aaguid: securityKeyAAGUID, attachment: .crossPlatform, transports: [.usb],
            algorithms: [.es256, .eddsa, .rs256, .ps256], alwaysDiscoverable: false, alwaysVerifiesUser: false,
            backedUp: false, countsSignatures: true, selfAttests: true)
        profile.extensions = allExtensions
        return profile
    }()

    /// Chrome's DevTools virtual authenticator with its default options (CDP
    /// `WebAuthn.addVirtualAuthenticator`, protocol `ctap2`, transport `usb`): AAGUID
    /// 01020304-0506-0708-0102-030405060708, ES256, EdDSA and RS256, `packed` attestation with
    /// a batch certificate, a counter per credential starting at 1 at registration, and
    /// credential IDs that are SHA-256 of the COSE public key. Source: Chromium's
    /// `device/fido/virtual_fido_device.cc` (kAAGUID and the attestation certificate it makes).
    public static let cdp: AuthenticatorProfile = {
        var profile = AuthenticatorProfile(
            name: "cdp", aaguid: cdpAAGUID, attachment: .crossPlatform, transports: [.usb],
            algorithms: [.es256, .eddsa, .rs256], alwaysDiscoverable: false, alwaysVerifiesUser: false,
            backedUp: false, countsSignatures: true, selfAttests: false)
        profile.batchAttests = true
        profile.credentialIDFromPublicKey = true
        profile.extensions = allExtensions
        profile.initialSignCount = 1
        return profile
    }()

    /// The built-in profiles, by name: ``platform``, ``securityKey``, ``cdp`` and the passkey
    /// ``providers``.
    public static let builtIn: [String: AuthenticatorProfile] = Dictionary(
        uniqueKeysWithValues: ([platform, securityKey, cdp] + providers).map { ($0.name, $0) })

    /// The AAGUID of Chrome's virtual authenticator.
    private static let cdpAAGUID: AAGUID = {
        // A constant, well-formed UUID literal.
        try! AAGUID(uuidString: "01020304-0506-0708-0102-030405060708")
    }()

    /// SoftPasskey's security-key model: a random version-4 UUID chosen once for this project.
    private static let securityKeyAAGUID: AAGUID = {
        // A constant, well-formed UUID literal.
        try! AAGUID(uuidString: "5e6a1b8c-2f3d-4c71-9a0e-7b4d3c2e1f60")
    }()
}
