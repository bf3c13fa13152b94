/// The parameters of `authenticatorGetAssertion` (CTAP 2.1 §6.2), as a client sends them.
public struct GetAssertionRequest: Sendable, Hashable {
    /// The relying party ID (`rpId`).
    public var rpID: String
    /// SHA-256 of the client data (`clientDataHash`).
    public var clientDataHash: [UInt8]
    /// The acceptable credential IDs (`allowList`); empty asks for a discoverable credential.
    public var allowList: [[UInt8]]
    /// Whether the user must be present (option `up`; `false` is a silent request).
    public var userPresence: Bool
    /// Whether the user must be verified (option `uv`).
    public var userVerification: Bool
    /// The hmac-secret input (CTAP 2.1 §12.5); `nil` when not requested.
    public var hmacSecret: HMACSecretInput?
    /// Whether the credential's `credBlob` is asked for (CTAP 2.1 §12.2 `getCredBlob`).
    public var getCredBlob = false
    /// Whether the credential's `largeBlobKey` is asked for (CTAP 2.1 §12.3).
    public var largeBlobKey = false

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - rpID: the relying party ID.
    ///   - clientDataHash: SHA-256 of the client data.
    ///   - allowList: acceptable credential IDs; empty for a discoverable credential.
    ///   - userPresence: whether the user must be present.
    ///   - userVerification: whether the user must be verified.
    ///   - hmacSecret: the hmac-secret input, if any.
    public init(
        rpID: String, clientDataHash: [UInt8], allowList: [[UInt8]] = [], userPresence: Bool = true,
        userVerification: Bool = true, hmacSecret: HMACSecretInput? = nil
    ) {
        self.rpID = rpID
        self.clientDataHash = clientDataHash
        self.allowList = allowList
        self.userPresence = userPresence
        self.userVerification = userVerification
        self.hmacSecret = hmacSecret
    }
}
