/// What a relying party stored about a credential at registration and needs to verify its
/// assertions (WebAuthn L3 §4 "credential record").
public struct CredentialRecord: Sendable, Hashable {
    /// The credential ID.
    public var id: [UInt8]
    /// The credential public key, as the COSE_Key bytes received at registration.
    public var publicKey: [UInt8]
    /// The signature counter last seen (0 for authenticators that keep none).
    public var signCount: UInt32
    /// The BE flag seen at registration, when stored; BE never changes for a credential (§6.1.3).
    public var backupEligible: Bool?
    /// The user handle of the account the credential belongs to, when known.
    public var userHandle: [UInt8]?
    /// The transports the client reported at registration (`response.transports`, §5.2.1), when
    /// stored: the hint the credential's descriptor carries.
    public var transports: [AuthenticatorTransport]?

    /// Creates a record.
    public init(
        id: [UInt8], publicKey: [UInt8], signCount: UInt32 = 0, backupEligible: Bool? = nil,
        userHandle: [UInt8]? = nil, transports: [AuthenticatorTransport]? = nil
    ) {
        self.id = id
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.userHandle = userHandle
        self.transports = transports
    }

    /// The credential as `excludeCredentials` and `allowCredentials` name it (WebAuthn L3
    /// §5.8.3): its ID and, when stored, its transports.
    public var descriptor: PublicKeyCredentialDescriptorJSON {
        PublicKeyCredentialDescriptorJSON(id: Base64URL(id), transports: transports)
    }
}
