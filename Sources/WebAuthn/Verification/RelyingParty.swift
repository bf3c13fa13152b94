/// What a relying party accepts, and the WebAuthn ceremony checks it runs against it
/// (WebAuthn L3 §7.1 "Registering a New Credential", §7.2 "Verifying an Authentication Assertion").
///
/// A `RelyingParty` holds policy that does not change from one ceremony to the next: its RP IDs,
/// origins, user-verification rule, allowed algorithms, attestation trust anchors and metadata. Each
/// ceremony adds what is particular to it: the challenge that was issued and, for an assertion,
/// the stored credential record.
///
/// ```swift
/// let rp = RelyingParty(id: "example.org", origins: ["https://example.org"])
/// let registration = try rp.verifyRegistration(
///     clientDataJSON: clientData, attestationObject: attestation, challenge: issuedChallenge)
/// ```
///
/// Every failure is a ``WebAuthnError`` whose code names the check that failed
/// (`wrong-origin`, `bad-signature`, ...).
public struct RelyingParty: Sendable {
    /// The RP IDs whose `rpIdHash` is accepted (usually one).
    public var ids: [String] {
        didSet { idHashes = Self.hashes(ids) }
    }
    /// SHA-256 of each of ``ids``, hashed once rather than for every ceremony.
    private(set) var idHashes: [[UInt8]]
    /// The origins accepted in client data, serialized (`https://example.org`).
    public var origins: [String]
    /// Whether ceremonies from iframes that are not same-origin with their ancestors
    /// (`crossOrigin: true`) are accepted.
    public var allowsCrossOrigin: Bool
    /// The top-level origins accepted in client data's `topOrigin`.
    public var topOrigins: [String]
    /// Whether the UV flag must be set (the options asked for `userVerification: "required"`).
    public var requireUserVerification: Bool
    /// Whether the UP flag must be set; true except for conditional-mediation registrations.
    public var requireUserPresence: Bool
    /// The credential algorithms accepted at registration (the `pubKeyCredParams` offered).
    public var allowedAlgorithms: [COSEAlgorithm]
    /// Trust anchors per attestation format. A format with anchors must chain to one of them;
    /// a format without any is accepted with an unverified trust path.
    ///
    /// Each set of anchors is parsed once, and a chain verified once while every certificate of
    /// it stays valid; changing the anchors starts afresh.
    public var trustAnchors: [AttestationFormat: [X509Certificate]] {
        didSet { attestationTrust = AttestationTrust() }
    }
    /// The choices attestation formats leave to the relying party.
    public var attestationPolicy: AttestationPolicy
    /// FIDO metadata: an authenticator it lists gets its entry's attestation roots as trust anchors
    /// besides ``trustAnchors``, and is refused when its status says it is compromised.
    public var metadata: MetadataBLOB? {
        didSet { attestationTrust = AttestationTrust() }
    }
    /// The anchors parsed and the chains verified so far, for the anchors and metadata above.
    var attestationTrust = AttestationTrust()

    /// Creates a relying party policy.
    ///
    /// - Parameters:
    ///   - ids: accepted RP IDs.
    ///   - origins: accepted origins; by default `https://` and each RP ID.
    ///   - allowsCrossOrigin: whether cross-origin iframe calls are accepted; not by default.
    ///   - topOrigins: accepted top-level origins of cross-origin calls; none by default.
    ///   - requireUserVerification: whether UV must be set.
    ///   - requireUserPresence: whether UP must be set.
    ///   - allowedAlgorithms: accepted credential algorithms; by default all this library verifies.
    ///   - trustAnchors: trust anchors per attestation format; none by default.
    ///   - attestationPolicy: the choices attestation formats leave to the relying party.
    ///   - metadata: a verified FIDO metadata BLOB, if the relying party uses one.
    public init(
        ids: [String], origins: [String]? = nil, allowsCrossOrigin: Bool = false, topOrigins: [String] = [],
        requireUserVerification: Bool = false,
        requireUserPresence: Bool = true, allowedAlgorithms: [COSEAlgorithm] = COSEAlgorithm.signatureAlgorithms,
        trustAnchors: [AttestationFormat: [X509Certificate]] = [:], attestationPolicy: AttestationPolicy = .init(),
        metadata: MetadataBLOB? = nil
    ) {
        self.ids = ids
        self.idHashes = Self.hashes(ids)
        self.origins = origins ?? ids.map { "https://\($0)" }
        self.allowsCrossOrigin = allowsCrossOrigin
        self.topOrigins = topOrigins
        self.requireUserVerification = requireUserVerification
        self.requireUserPresence = requireUserPresence
        self.allowedAlgorithms = allowedAlgorithms
        self.trustAnchors = trustAnchors
        self.attestationPolicy = attestationPolicy
        self.metadata = metadata
    }

    /// The `rpIdHash` of each RP ID (WebAuthn L3 §6.1).
    private static func hashes(_ ids: [String]) -> [[UInt8]] {
        ids.map { SHA256Digest.hash(Array($0.utf8)) }
    }

    /// Creates a relying party policy for one RP ID.
    public init(
        id: String, origins: [String]? = nil, requireUserVerification: Bool = false,
        allowedAlgorithms: [COSEAlgorithm] = COSEAlgorithm.signatureAlgorithms
    ) {
        self.init(
            ids: [id], origins: origins, requireUserVerification: requireUserVerification,
            allowedAlgorithms: allowedAlgorithms)
    }
}
