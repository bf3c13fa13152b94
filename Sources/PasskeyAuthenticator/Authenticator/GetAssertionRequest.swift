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

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - rpID: the relying party ID.
    ///   - clientDataHash: SHA-256 of the client data.
    ///   - allowList: acceptable credential IDs; empty for a discoverable credential.
    ///   - userPresence: whether the user must be present.
    ///   - userVerification: whether the user must be verified.
    public init(
        rpID: String, clientDataHash: [UInt8], allowList: [[UInt8]] = [], userPresence: Bool = true,
        userVerification: Bool = true
    ) {
        self.rpID = rpID
        self.clientDataHash = clientDataHash
        self.allowList = allowList
        self.userPresence = userPresence
        self.userVerification = userVerification
    }
}
