public import WebAuthn

/// What `authenticatorMakeCredential` answers (CTAP 2.1 §6.1.2): the attestation object.
public struct MakeCredentialResponse: Sendable, Hashable {
    /// The attestation object (`fmt`, `authData`, `attStmt`).
    public let attestationObject: AttestationObject
    /// Whether the credential is discoverable, for the `credProps` extension (WebAuthn L3
    /// §10.1.3); `nil` when the authenticator does not say.
    public let residentKey: Bool?
    /// The credential's `largeBlobKey` (CTAP 2.1 §6.1 response member 0x05) when asked for and
    /// supported.
    public let largeBlobKey: SecretKey?
    /// `epAtt` (CTAP 2.1 §6.1 response member 0x04): whether the attestation is an enterprise
    /// attestation, which may identify the authenticator.
    public let enterpriseAttestation: Bool

    /// Wraps an attestation object.
    ///
    /// - Parameters:
    ///   - attestationObject: the attestation object; its authenticator data carries the
    ///     attested credential data.
    ///   - residentKey: whether the credential is discoverable, if known.
    ///   - largeBlobKey: the credential's `largeBlobKey`, when asked for.
    ///   - enterpriseAttestation: whether the attestation is an enterprise attestation.
    public init(
        attestationObject: AttestationObject, residentKey: Bool?, largeBlobKey: SecretKey? = nil,
        enterpriseAttestation: Bool = false
    ) {
        precondition(
            attestationObject.authenticatorData.attestedCredentialData != nil,
            "a new credential's authenticator data has attested credential data")
        self.attestationObject = attestationObject
        self.residentKey = residentKey
        self.largeBlobKey = largeBlobKey
        self.enterpriseAttestation = enterpriseAttestation
    }

    /// The new credential's attested data (ID, AAGUID and public key).
    public var credential: AttestedCredentialData {
        // The initializer requires it.
        attestationObject.authenticatorData.attestedCredentialData!
    }
}
