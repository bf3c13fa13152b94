public import WebAuthn

/// An attestation statement format the conformance runner forges (WebAuthn L3 §8), named as the
/// suite's tests and reports name it: `packed` twice, as self attestation (§8.2, no `x5c`) and as
/// basic attestation with a batch certificate.
public enum ConformanceFormat: String, Sendable, Hashable, CaseIterable {
    /// No attestation (§8.7).
    case none
    /// `packed` self attestation: the credential key signs (§8.2).
    case packedSelf = "packed-self"
    /// `packed` with a batch certificate path (§8.2, §8.2.1).
    case packed
    /// `fido-u2f` (§8.6): a U2F device's registration signature.
    case fidoU2F = "fido-u2f"
    /// `tpm` (§8.3): an AIK certifies the credential key.
    case tpm
    /// `android-key` (§8.4): a keystore certificate of the credential key.
    case androidKey = "android-key"
    /// `apple` anonymous attestation (§8.8): a certificate of the credential key with the nonce.
    case apple

    /// The attestation statement format identifier the attestation object carries (`fmt`).
    public var attestationFormat: AttestationFormat {
        switch self {
        case .none: .none
        case .packedSelf, .packed: .packed
        case .fidoU2F: .fidoU2F
        case .tpm: .tpm
        case .androidKey: .androidKey
        case .apple: .apple
        }
    }

    /// The attestation type a relying party finds when it verifies this format's statement (§6.5.3).
    public var attestationType: AttestationType {
        switch self {
        case .none: .none
        case .packedSelf: .self
        case .packed, .fidoU2F, .androidKey: .basic
        case .tpm: .attCA
        case .apple: .anonCA
        }
    }

    /// Whether the statement carries a certificate path (`x5c`) that a relying party chains to its
    /// trust anchors (§7.1 steps 23–24).
    public var hasCertificatePath: Bool {
        self != .none && self != .packedSelf
    }

    /// Whether this format can attest a credential key of `algorithm`: `fido-u2f` only a P-256 key
    /// (§8.6 step 3), `tpm` and `android-key` the EC and RSA keys a TPM or a keystore holds (§8.3,
    /// §8.4), `apple` the P-256 keys Apple's authenticators make (§8.8); the others any signature
    /// algorithm.
    public func carries(_ algorithm: COSEAlgorithm) -> Bool {
        switch self {
        case .none, .packedSelf, .packed: algorithm.isSignatureAlgorithm
        case .fidoU2F, .apple: algorithm == .es256
        case .tpm, .androidKey: Self.tpmAndKeystoreAlgorithms.contains(algorithm)
        }
    }

    /// The EC and RSA signature algorithms of a TPM object or an Android keystore key.
    private static let tpmAndKeystoreAlgorithms: Set<COSEAlgorithm> = [
        .es256, .es384, .es512, .rs256, .rs384, .rs512, .ps256, .ps384, .ps512,
    ]
}
