public import WebAuthn

/// The transport binding answered in process by this package's `RelyingParty`: users, their
/// credentials and the challenges issued kept in memory, each challenge spent on first use.
///
/// What a server built on `RelyingParty` does, so the suite checks the verifier without HTTP,
/// and a reference for the binding's semantics: options from
/// `RelyingParty/generateRegistrationOptions(rpName:user:algorithms:excludeCredentials:residentKey:userVerification:authenticatorAttachment:attestation:hints:extensions:timeout:challenge:)`,
/// verdicts from `RelyingParty/verifyRegistration(_:challenge:at:)` and
/// `RelyingParty/verifyAuthentication(_:challenge:credential:allowCredentials:userIdentified:)`.
public actor RelyingPartyConformanceTarget: ConformanceTarget, CustomStringConvertible {
    /// The policy: RP ID, origins, algorithms, trust anchors, metadata. User verification is
    /// required per ceremony, as its options ask.
    public let relyingParty: RelyingParty
    /// Whether an attestation with a certificate path must chain to a trust anchor (the anchors
    /// or the metadata of ``relyingParty``); self and `none` attestation are accepted either way.
    public let requiresTrustedAttestation: Bool

    private struct User {
        let handle: [UInt8]
        var credentials: [[UInt8]] = []
    }

    private struct Pending {
        let username: String
        let requiresUserVerification: Bool
        let allowed: [[UInt8]]
    }

    private var users: [String: User] = [:]
    private var records: [[UInt8]: (record: CredentialRecord, username: String)] = [:]
    private var pending: [[UInt8]: Pending] = [:]

    /// A target.
    ///
    /// - Parameters:
    ///   - relyingParty: the policy.
    ///   - requiresTrustedAttestation: whether certificate paths must chain to an anchor.
    public init(relyingParty: RelyingParty, requiresTrustedAttestation: Bool = false) {
        self.relyingParty = relyingParty
        self.requiresTrustedAttestation = requiresTrustedAttestation
    }

    /// The relying party of a server that checks attestation: it trusts the runner's root for
    /// every format that carries a chain (or, given `metadata`, the roots the metadata lists for
    /// each model, and the root for `fido-u2f`) and requires trusted attestation.
    ///
    /// - Parameters:
    ///   - rpID: the RP ID; its origin is `https://` and the ID.
    ///   - pki: the runner's PKI.
    ///   - metadata: FIDO metadata to read instead of trusting the root directly.
    public init(rpID: String, trusting pki: ConformancePKI, metadata: MetadataBLOB? = nil) {
        // FIDO metadata finds U2F authenticators by attestation key identifier, not AAGUID, and
        // MetadataBLOB reads AAGUID entries only: fido-u2f keeps the root as its anchor.
        let formats: [AttestationFormat] =
            metadata == nil ? [.packed, .tpm, .androidKey, .fidoU2F, .apple] : [.fidoU2F]
        let anchors = Dictionary(uniqueKeysWithValues: formats.map { ($0, [pki.root]) })
        self.init(
            relyingParty: RelyingParty(ids: [rpID], trustAnchors: anchors, metadata: metadata),
            requiresTrustedAttestation: true)
    }

    /// `RelyingParty(<RP IDs>)`.
    public nonisolated var description: String {
        "RelyingParty(\(relyingParty.ids.joined(separator: ", ")))"
    }

    public func send(_ call: ConformanceCall, _ body: JSONValue, after options: ConformanceAnswer?)
        async throws(ConformanceError) -> ConformanceAnswer
    {
        do {
            switch call {
            case .attestationOptions: return try creationOptions(body)
            case .attestationResult: return try register(body, options: options)
            case .assertionOptions: return try requestOptions(body)
            case .assertionResult: return try authenticate(body, options: options)
            }
        } catch {
            return .binding(accepted: false, message: error.description)
        }
    }

    private func creationOptions(_ body: JSONValue) throws(WebAuthnError) -> ConformanceAnswer {
        guard let username = body["username"]?.stringValue, !username.isEmpty else {
            throw WebAuthnError(.malformedJSON, "username is missing")
        }
        let user = users[username] ?? User(handle: SecureRandom.bytes(16))
        users[username] = user
        let selection = body["authenticatorSelection"]
        let userVerification = selection?["userVerification"]?.stringValue.map(UserVerificationRequirement.init)
        let generated = relyingParty.generateRegistrationOptions(
            rpName: "SoftPasskey conformance",
            user: PublicKeyCredentialUserEntityJSON(
                id: Base64URL(user.handle), name: username,
                displayName: body["displayName"]?.stringValue ?? username),
            excludeCredentials: user.credentials.compactMap { records[$0]?.record.descriptor },
            residentKey: selection?["residentKey"]?.stringValue.map(ResidentKeyRequirement.init) ?? .preferred,
            userVerification: userVerification,
            attestation: body["attestation"]?.stringValue.map(AttestationConveyancePreference.init)
                ?? AttestationConveyancePreference.none)
        pending[generated.challenge] = Pending(
            username: username, requiresUserVerification: userVerification == .required, allowed: [])
        return .binding(accepted: true, try Self.members(generated.options))
    }

    private func register(_ body: JSONValue, options: ConformanceAnswer?) throws(WebAuthnError) -> ConformanceAnswer {
        let (challenge, ceremony) = try spend(options)
        let response = try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: body.json)
        var policy = relyingParty
        policy.requireUserVerification = ceremony.requiresUserVerification
        let verified = try policy.verifyRegistration(response, challenge: challenge)
        if requiresTrustedAttestation, !verified.trustPath.isEmpty, !verified.isTrusted {
            throw WebAuthnError(.untrustedAttestationRoot, "the attestation chains to no trust anchor")
        }
        guard records[verified.credentialID] == nil else {
            throw WebAuthnError(.credentialNotAllowed, "the credential ID is already registered")
        }
        guard let user = users[ceremony.username] else {
            throw WebAuthnError(.credentialNotAllowed, "the user is gone")
        }
        records[verified.credentialID] = (verified.record(userHandle: user.handle), ceremony.username)
        users[ceremony.username]?.credentials.append(verified.credentialID)
        return .binding(accepted: true)
    }

    private func requestOptions(_ body: JSONValue) throws(WebAuthnError) -> ConformanceAnswer {
        guard let username = body["username"]?.stringValue, let user = users[username] else {
            throw WebAuthnError(.credentialNotAllowed, "no such user")
        }
        let userVerification = body["userVerification"]?.stringValue.map(UserVerificationRequirement.init)
        let generated = relyingParty.generateAuthenticationOptions(
            allowCredentials: user.credentials.compactMap { records[$0]?.record.descriptor },
            userVerification: userVerification)
        pending[generated.challenge] = Pending(
            username: username, requiresUserVerification: userVerification == .required, allowed: user.credentials)
        return .binding(accepted: true, try Self.members(generated.options))
    }

    private func authenticate(_ body: JSONValue, options: ConformanceAnswer?) throws(WebAuthnError)
        -> ConformanceAnswer
    {
        let (challenge, ceremony) = try spend(options)
        let response = try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: body.json)
        guard let (record, _) = records[response.rawId.bytes] else {
            throw WebAuthnError(.credentialNotAllowed, "no such credential")
        }
        var policy = relyingParty
        policy.requireUserVerification = ceremony.requiresUserVerification
        let verified = try policy.verifyAuthentication(
            response, challenge: challenge, credential: record, allowCredentials: ceremony.allowed)
        records[record.id]?.record.signCount = verified.signCount
        return .binding(accepted: true)
    }

    /// The challenge of the options this result answers, spent: a second result for the same
    /// options finds it gone (WebAuthn L3 §13.4.3).
    private func spend(_ options: ConformanceAnswer?) throws(WebAuthnError) -> ([UInt8], Pending) {
        guard let text = options?.options?["challenge"]?.stringValue,
            let challenge = try? Base64URL.decode(text), let ceremony = pending.removeValue(forKey: challenge)
        else {
            throw WebAuthnError(.wrongChallenge, "no options are waiting for this result (a challenge is used once)")
        }
        return (challenge, ceremony)
    }

    /// Options as the binding's answer members.
    private static func members(_ options: some Encodable) throws(WebAuthnError) -> [String: JSONValue] {
        try WebAuthnJSON.decode(JSONValue.self, from: WebAuthnJSON.encode(options)).objectValue ?? [:]
    }
}
