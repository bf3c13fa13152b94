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
    /// The new credential's public key as the authenticator encoded it into the attested
    /// credential data, with its SubjectPublicKeyInfo, when the authenticator is this package's
    /// ``SoftwareAuthenticator``: the client reports them (`getPublicKey()`,
    /// `getPublicKeyAlgorithm()`, WebAuthn L3 §5.2.1.1) without decoding the key it was just
    /// given (issue 46). Not part of equality: it is the attestation object's key again.
    let encodedPublicKey: EncodedPublicKey?

    /// A public key and its DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
    struct EncodedPublicKey: Sendable {
        let key: COSEKey
        let spki: [UInt8]
    }

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
        self.init(
            attestationObject: attestationObject, residentKey: residentKey, largeBlobKey: largeBlobKey,
            enterpriseAttestation: enterpriseAttestation, encodedPublicKey: nil)
    }

    /// Wraps an attestation object whose credential public key is `encodedPublicKey.key`.
    init(
        attestationObject: AttestationObject, residentKey: Bool?, largeBlobKey: SecretKey?,
        enterpriseAttestation: Bool, encodedPublicKey: EncodedPublicKey?
    ) {
        precondition(
            attestationObject.authenticatorData.attestedCredentialData != nil,
            "a new credential's authenticator data has attested credential data")
        self.attestationObject = attestationObject
        self.residentKey = residentKey
        self.largeBlobKey = largeBlobKey
        self.enterpriseAttestation = enterpriseAttestation
        self.encodedPublicKey = encodedPublicKey
    }

    public static func == (left: Self, right: Self) -> Bool {
        left.attestationObject == right.attestationObject && left.residentKey == right.residentKey
            && left.largeBlobKey == right.largeBlobKey && left.enterpriseAttestation == right.enterpriseAttestation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(attestationObject)
        hasher.combine(residentKey)
        hasher.combine(largeBlobKey)
        hasher.combine(enterpriseAttestation)
    }

    /// The new credential's attested data (ID, AAGUID and public key).
    public var credential: AttestedCredentialData {
        // The initializer requires it.
        attestationObject.authenticatorData.attestedCredentialData!
    }
}
