/// One way the runner breaks an attestation statement, so that a relying party that verifies the
/// format (WebAuthn L3 §8) must refuse the registration.
public enum AttestationFault: String, Sendable, Hashable, CaseIterable {
    /// The statement's signature does not verify; for `android-key` and `apple`, what binds the
    /// certificate to this ceremony is another's (the attestation challenge, the nonce).
    case badSignature = "bad-signature"
    /// The format's certificate requirements are broken (§8.2.1, §8.3.1, §8.4, §8.6, §8.8).
    case wrongCertificateProfile = "wrong-certificate-profile"
    /// The certificate's `id-fido-gen-ce-aaguid` differs from authenticator data's AAGUID.
    case wrongAAGUID = "wrong-aaguid"
    /// The leaf certificate expired before now (§7.1 step 24, RFC 5280 §6.1.3).
    case expiredChain = "expired-chain"
    /// The chain ends at a root nobody was given (§7.1 step 24).
    case untrustedChain = "untrusted-chain"

    /// Whether the fault can be made in a statement of `format`: a signature to break in every
    /// format but `none`; certificates in the formats with `x5c`; an AAGUID extension in `packed`
    /// and `tpm` only, the formats whose certificates §8.2.1 and §8.3.1 let name one.
    ///
    /// - Parameter format: the statement's format.
    /// - Returns: whether ``ConformancePKI/attest(_:authenticatorData:clientDataHash:credentialKey:fault:)``
    ///   makes this fault in it.
    public func applies(to format: ConformanceFormat) -> Bool {
        switch self {
        case .badSignature: format != .none
        case .wrongCertificateProfile, .expiredChain, .untrustedChain: format.hasCertificatePath
        case .wrongAAGUID: format == .packed || format == .tpm
        }
    }
}
