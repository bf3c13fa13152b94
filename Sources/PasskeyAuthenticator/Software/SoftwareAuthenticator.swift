public import FoundationEssentials
public import WebAuthn

/// An authenticator in software: keys made with OpenSSL, kept sealed in a ``CredentialStore``,
/// behaving as its ``AuthenticatorProfile`` says.
///
/// It is a value: copy it with another ``simulation`` or ``accountChoice`` for one ceremony; all
/// copies share the store.
///
/// ```swift
/// let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
/// let client = WebAuthnClient(authenticator: authenticator)
/// let response = try await client.create(options, origin: WebOrigin("https://example.com"))
/// ```
public struct SoftwareAuthenticator: Authenticator {
    /// Where credentials are kept.
    public let store: any CredentialStore
    /// Which kind of authenticator it stands in for.
    public var profile: AuthenticatorProfile
    /// In seeded mode, the secret credentials are derived from; `nil` draws them at random.
    public var seed: Seed?
    /// A failure to act out, if any.
    public var simulation: Simulation?
    /// Which credential the simulated user picks when several match.
    public var accountChoice: AccountChoice
    /// The clock that dates new credentials.
    public var now: @Sendable () -> Date
    /// Gives the material of the next credentials, in tests that reproduce published vectors.
    package var keyMaterialForTesting: (@Sendable (COSEAlgorithm) throws(WebAuthnError) -> KeyMaterial)?
    /// The key-agreement key of hmac-secret, made on first use (a token makes one at power-up).
    let keyAgreementKey = LazyKeyAgreementKey()

    /// Creates an authenticator over a store.
    ///
    /// - Parameters:
    ///   - store: where credentials are kept.
    ///   - profile: how it behaves; ``AuthenticatorProfile/platform`` by default.
    ///   - seed: a seed for reproducible credentials, or `nil` for random ones.
    ///   - simulation: a failure to act out, or `nil`.
    ///   - accountChoice: which credential to pick among several.
    ///   - now: the clock.
    public init(
        store: any CredentialStore, profile: AuthenticatorProfile = .platform, seed: Seed? = nil,
        simulation: Simulation? = nil, accountChoice: AccountChoice = .mostRecent,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.profile = profile
        self.seed = seed
        self.simulation = simulation
        self.accountChoice = accountChoice
        self.now = now
    }

    public var info: AuthenticatorInfo {
        var info = AuthenticatorInfo(
            aaguid: profile.aaguid, attachment: profile.attachment, transports: profile.transports,
            algorithms: profile.algorithms, supportsResidentKeys: profile.supportsResidentKeys,
            supportsUserVerification: profile.supportsUserVerification, extensions: profile.extensions)
        if profile.supports("largeBlobKey"), store is any LargeBlobStore {
            info.maxSerializedLargeBlobArray = profile.maxSerializedLargeBlobArray
        }
        info.supportsU2F = supportsU2F
        return info
    }

    /// The key-agreement public key for hmac-secret (CTAP 2.1 §6.5.5.4); the same for both
    /// PIN/UV auth protocols.
    public func keyAgreement(_ pinUVAuthProtocol: PINUVAuthProtocol) async throws(AuthenticatorError) -> COSEKey {
        try keyAgreementKey.key.publicKey
    }

    /// The shared secret of the key-agreement key with a platform's (CTAP 2.1 §6.5.6, §6.5.7
    /// `decapsulate`), for a CTAP device's clientPIN; the key is the one hmac-secret uses.
    public func sharedSecret(with platformKey: COSEKey, _ pinUVAuthProtocol: PINUVAuthProtocol)
        async throws(AuthenticatorError) -> PINUVAuthSharedSecret
    {
        try pinUVAuthProtocol.decapsulate(peer: platformKey, using: keyAgreementKey.key)
    }

    /// Replaces the key-agreement key (CTAP 2.1 §6.5.4 `regenerate`); the next use makes a new one.
    public func regenerateKeyAgreement() async throws(AuthenticatorError) {
        keyAgreementKey.regenerate()
    }

    // MARK: The user

    /// What the simulated user did: whether they were present and verified.
    struct Gesture {
        var userPresent: Bool
        var userVerified: Bool
    }

    /// Asks the simulated user for presence and, if `verification`, verification (CTAP 2.1
    /// §6.1.2 steps 11–14, §6.2.2 steps 5–9), acting out ``simulation``; a present user is
    /// verified anyway when `alwaysVerifies` (as Face ID does).
    func gesture(presence: Bool, verification: Bool, alwaysVerifies: Bool) throws(AuthenticatorError) -> Gesture {
        switch simulation {
        case .cancel:
            throw AuthenticatorError(.keepaliveCancel, "the user cancelled")
        case .timeout:
            throw AuthenticatorError(.userActionTimeout, "the user did not respond in time")
        case .denyUV where verification:
            throw AuthenticatorError(.uvInvalid, "user verification failed")
        case .denyUV:
            return Gesture(userPresent: presence, userVerified: false)
        case .noPresence:
            return Gesture(userPresent: false, userVerified: false)
        case .bogusSignature, nil:
            return Gesture(
                userPresent: presence, userVerified: verification || (presence && alwaysVerifies))
        }
    }

    /// Has the store sign `authenticatorData ‖ clientDataHash` with the credential's key
    /// (WebAuthn L3 §6.3.3 step 11), breaking the signature when ``simulation`` says so. In seeded
    /// mode the signature is reproducible (``CredentialStore/signReproducibly(_:with:)``), so the
    /// whole response is.
    func sign(_ authenticatorData: AuthenticatorData, _ clientDataHash: [UInt8], with credential: StoredCredential)
        async throws(AuthenticatorError) -> [UInt8]
    {
        let message = authenticatorData.bytes + clientDataHash
        var signature = try await storing { () async throws(StoreError) in
            seed == nil
                ? try await store.sign(message, with: credential)
                : try await store.signReproducibly(message, with: credential)
        }
        if simulation == .bogusSignature {
            signature[signature.count / 2] ^= 0x01
        }
        return signature
    }

    /// The flags of authenticator data: UP and UV from the gesture, BE and BS the credential's.
    func flags(_ gesture: Gesture, _ stored: StoredCredential) -> AuthenticatorFlags {
        var flags: AuthenticatorFlags = []
        if gesture.userPresent { flags.insert(.userPresent) }
        if gesture.userVerified { flags.insert(.userVerified) }
        if stored.backupEligible { flags.insert(.backupEligible) }
        if stored.backupState { flags.insert(.backupState) }
        return flags
    }

    /// Runs a store operation, turning its failure into a CTAP status that keeps it as cause.
    func storing<T>(_ body: () async throws(StoreError) -> T) async throws(AuthenticatorError) -> T {
        do {
            return try await body()
        } catch {
            throw AuthenticatorError(error)
        }
    }

    /// Checks the length of the client data hash every request carries.
    static func check(clientDataHash: [UInt8]) throws(AuthenticatorError) {
        guard clientDataHash.count == SHA256Digest.digestLength else {
            throw AuthenticatorError(.invalidLength, "clientDataHash is 32 bytes, not \(clientDataHash.count)")
        }
    }
}
