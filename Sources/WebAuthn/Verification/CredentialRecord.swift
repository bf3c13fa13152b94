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

    /// Creates a record.
    public init(
        id: [UInt8], publicKey: [UInt8], signCount: UInt32 = 0, backupEligible: Bool? = nil,
        userHandle: [UInt8]? = nil
    ) {
        self.id = id
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.userHandle = userHandle
    }
}
