public import WebAuthn

/// The authenticator models the conformance suite claims to be, each with the AAGUID its forged
/// registrations carry and the status the local metadata service lists for it (FIDO MDS 3.0
/// §3.1.4): one model a relying party should trust, three it must refuse once it reads metadata,
/// and one metadata does not list at all.
public enum ConformanceAuthenticator: String, Sendable, Hashable, CaseIterable {
    /// A FIDO-certified model: its registrations are trusted.
    case certified
    /// A model whose status is `REVOKED`.
    case revoked
    /// A model whose status is `ATTESTATION_KEY_COMPROMISE`.
    case attestationKeyCompromise = "attestation-key-compromise"
    /// A model whose status is `USER_VERIFICATION_BYPASS`.
    case userVerificationBypass = "user-verification-bypass"
    /// A model metadata does not list.
    case unlisted

    /// The model's AAGUID: `53504b43-0000-4000-8000-00000000000N` ("SPKC", then the model's number).
    public var aaguid: AAGUID {
        let number = UInt8(Self.allCases.firstIndex(of: self)! + 1)  // every case is in allCases
        // Sixteen bytes are always an AAGUID.
        return try! AAGUID(bytes: [0x53, 0x50, 0x4B, 0x43, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, number])
    }

    /// The status the local metadata service lists (its latest status report), or `nil` for a
    /// model it leaves out.
    public var status: AuthenticatorStatus? {
        switch self {
        case .certified: .fidoCertified
        case .revoked: .revoked
        case .attestationKeyCompromise: .attestationKeyCompromise
        case .userVerificationBypass: .userVerificationBypass
        case .unlisted: nil
        }
    }

    /// The metadata statement's `description`.
    public var description: String { "SoftPasskey conformance authenticator (\(rawValue))" }
}
