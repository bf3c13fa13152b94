import FoundationEssentials

/// What an attestation statement format's verification procedure takes (WebAuthn L3 §8: "the
/// procedure … takes as input attStmt, authenticatorData and clientDataHash").
///
/// `credentialKey` is the credential public key of `authenticatorData`, parsed once by the caller;
/// `time` is the instant at which certificates and time-stamped statements must be valid;
/// `policy` holds the relying party's choices where a format leaves them to it; `trust` parses
/// each distinct `x5c` once (``certificates(_:failure:)``).
struct AttestationInput {
    let statement: CBOR
    let authenticatorData: AuthenticatorData
    let clientDataHash: [UInt8]
    let credentialKey: COSEKey
    let time: Date
    let policy: AttestationPolicy
    let trust: AttestationTrust

    /// The authenticator data's AAGUID; the caller has checked attested credential data exists.
    var aaguid: AAGUID { authenticatorData.attestedCredentialData?.aaguid ?? AAGUID.zero }

    /// `authenticatorData ‖ clientDataHash`, the bytes most formats sign.
    var signedData: [UInt8] { authenticatorData.bytes + clientDataHash }

    /// The certificates of an `x5c`, leaf first, parsed once per distinct `x5c` by the relying
    /// party (``AttestationTrust/certificates(_:failure:)``).
    func certificates(
        _ ders: [[UInt8]], failure: (_ index: Int, _ error: WebAuthnError) -> WebAuthnError
    ) throws(WebAuthnError) -> TrustPath {
        try trust.certificates(ders, failure: failure)
    }
}

/// One attestation statement format's verification procedure (WebAuthn L3 §8.2–§8.8).
///
/// A verifier checks the statement's signature and the format's certificate requirements and
/// answers the attestation type and trust path. Chaining that path to the relying party's trust
/// anchors is common to every format and done by ``RelyingParty`` afterwards (§7.1 steps 23–25).
protocol AttestationStatementVerifier: Sendable {
    /// The format identifier (`fmt`) this verifier handles.
    static var format: AttestationFormat { get }

    /// Runs the format's verification procedure.
    ///
    /// - Throws: `WebAuthnError` naming the failed requirement.
    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationVerdict
}

/// What an attestation statement's verification procedure concludes (WebAuthn L3 §8).
struct AttestationVerdict {
    let type: AttestationType
    let trustPath: TrustPath
    let isTrusted: Bool

    init(type: AttestationType, trustPath: TrustPath = .empty, isTrusted: Bool = false) {
        self.type = type
        self.trustPath = trustPath
        self.isTrusted = isTrusted
    }
}

extension RelyingParty {
    /// The attestation statement formats this library verifies, by identifier (§7.1 step 21).
    static let attestationVerifiers: [AttestationFormat: any AttestationStatementVerifier.Type] = {
        let verifiers: [any AttestationStatementVerifier.Type] = [
            NoneAttestationVerifier.self,
            PackedAttestationVerifier.self,
            FIDOU2FAttestationVerifier.self,
            AppleAttestationVerifier.self,
            AndroidKeyAttestationVerifier.self,
            TPMAttestationVerifier.self,
            AndroidSafetyNetAttestationVerifier.self,
        ]
        return Dictionary(uniqueKeysWithValues: verifiers.map { ($0.format, $0) })
    }()

    /// The formats ``verifyRegistration(clientDataJSON:attestationObject:challenge:at:)`` accepts.
    public static var supportedAttestationFormats: [AttestationFormat] {
        attestationVerifiers.keys.sorted { $0.rawValue < $1.rawValue }
    }
}
