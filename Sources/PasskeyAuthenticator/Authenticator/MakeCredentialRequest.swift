public import WebAuthn

/// The parameters of `authenticatorMakeCredential` (CTAP 2.1 §6.1), as a client sends them.
public struct MakeCredentialRequest: Sendable, Hashable {
    /// The user account a credential is made for (`user`, WebAuthn L3 §5.4.3).
    public struct User: Sendable, Hashable {
        /// The user handle, 1 to 64 bytes.
        public var id: [UInt8]
        /// The account name.
        public var name: String
        /// The display name.
        public var displayName: String

        /// Names a user account.
        ///
        /// - Parameters:
        ///   - id: the user handle.
        ///   - name: the account name.
        ///   - displayName: the display name.
        public init(id: [UInt8], name: String, displayName: String) {
            self.id = id
            self.name = name
            self.displayName = displayName
        }
    }

    /// SHA-256 of the client data (`clientDataHash`).
    public var clientDataHash: [UInt8]
    /// The relying party ID (`rp.id`).
    public var rpID: String
    /// The relying party's name (`rp.name`), if any.
    public var rpName: String?
    /// The user.
    public var user: User
    /// The acceptable algorithms, most preferred first (`pubKeyCredParams`); values this library
    /// has no name for are kept, so the authenticator can skip them.
    public var algorithms: [Int]
    /// Credential IDs that must not be on this authenticator already (`excludeList`).
    public var excludeList: [[UInt8]]
    /// Whether the credential must be discoverable (option `rk`).
    public var residentKey: Bool
    /// Whether the user must be verified (option `uv`).
    public var userVerification: Bool
    /// Whether the user must be present (option `up`, CTAP 2.2 §6.1.2 step 13): false only for a
    /// conditional create (WebAuthn L3 §5.1.3, `mediation: "conditional"`), which the client makes
    /// without asking the user, so the UP flag of the result is clear.
    public var userPresence = true
    /// Whether the hmac-secret extension is requested (CTAP 2.1 §12.5).
    public var hmacSecret: Bool
    /// The attestation formats the client prefers, most preferred first
    /// (`attestationFormatsPreference`, CTAP 2.2 §6.1); `["none"]` when the relying party wants
    /// no attestation.
    public var attestationFormatsPreference: [AttestationFormat]
    /// The `credProtect` policy asked for (CTAP 2.1 §12.1); `nil` when not requested.
    public var credentialProtection: CredentialProtectionPolicy?
    /// The `credBlob` to store with the credential (CTAP 2.1 §12.2); `nil` when not requested.
    public var credBlob: [UInt8]?
    /// Whether the `minPinLength` extension is requested (CTAP 2.1 §12.4).
    public var minPINLength = false
    /// The `hmac-secret-mc` input (CTAP 2.2 §12.7): salts to evaluate at creation, which the
    /// `prf` extension's `eval` at creation runs on; `nil` when not requested.
    public var hmacSecretMC: HMACSecretInput?
    /// Whether the credential's `largeBlobKey` is asked for (CTAP 2.1 §12.3).
    public var largeBlobKey = false
    /// The `enterpriseAttestation` parameter (CTAP 2.1 §6.1): 1 vendor-facilitated, 2
    /// platform-managed; `nil` when the relying party did not ask for enterprise attestation.
    public var enterpriseAttestation: Int?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - clientDataHash: SHA-256 of the client data.
    ///   - rpID: the relying party ID.
    ///   - rpName: the relying party's name.
    ///   - user: the user account.
    ///   - algorithms: the acceptable COSE algorithms, most preferred first.
    ///   - excludeList: credential IDs that must not exist here already.
    ///   - residentKey: whether the credential must be discoverable.
    ///   - userVerification: whether the user must be verified.
    ///   - hmacSecret: whether hmac-secret is requested.
    ///   - attestationFormatsPreference: the preferred attestation formats.
    public init(
        clientDataHash: [UInt8], rpID: String, rpName: String? = nil, user: User, algorithms: [Int],
        excludeList: [[UInt8]] = [], residentKey: Bool = true, userVerification: Bool = true,
        hmacSecret: Bool = false, attestationFormatsPreference: [AttestationFormat] = [.none]
    ) {
        self.clientDataHash = clientDataHash
        self.rpID = rpID
        self.rpName = rpName
        self.user = user
        self.algorithms = algorithms
        self.excludeList = excludeList
        self.residentKey = residentKey
        self.userVerification = userVerification
        self.hmacSecret = hmacSecret
        self.attestationFormatsPreference = attestationFormatsPreference
    }
}
