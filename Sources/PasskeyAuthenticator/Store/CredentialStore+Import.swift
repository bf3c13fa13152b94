public import FoundationEssentials
public import WebAuthn

extension CredentialStore {
    /// Takes in a credential whose private key comes from elsewhere: a key given as PKCS#8 (the
    /// W3C WebDriver Add Credential command, WebAuthn L3 §11.4; `passkey import --pkcs8`) or
    /// exported from another store (``KeyExportingStore/copyCredential(id:to:)``).
    ///
    /// The key goes into this store's custody (``makeKey(_:)`` with ``CredentialKeyRequest/importing``),
    /// with new hmac-secret seeds, then the record is added.
    ///
    /// - Parameters:
    ///   - privateKey: the key.
    ///   - template: the record's other fields (ID, RP, user, flags, counter, profile, date); its
    ///     blobs and public key are ignored.
    /// - Returns: the record as this store keeps it.
    /// - Throws: `StoreError` with `duplicate` when a credential has the ID (the store is then
    ///   unchanged), `unsupported` when this store takes no keys in, or another code.
    public func importCredential(privateKey: SigningKey, as template: CredentialTemplate) async throws(StoreError)
        -> StoredCredential
    {
        let custody = try await makeKey(
            CredentialKeyRequest(
                credentialID: template.id, rpID: template.rpID, algorithm: privateKey.algorithm,
                importing: CredentialSecrets(
                    privateKey: privateKey, prfSeedWithUV: .random(), prfSeedWithoutUV: .random())))
        var stored: StoredCredential
        do {
            stored = try StoredCredential(
                id: template.id, rpID: template.rpID, userHandle: template.userHandle, userName: template.userName,
                userDisplayName: template.userDisplayName, key: custody, profile: template.profile,
                backupEligible: template.backupEligible, backupState: template.backupState,
                discoverable: template.discoverable, signCount: template.signCount, createdAt: template.createdAt)
        } catch {
            throw StoreError(.invalidCredential, "the key's public key does not encode: \(error.reason)")
        }
        stored.credentialProtection = template.credentialProtection
        stored.credBlob = template.credBlob
        try await add(stored)
        return stored
    }
}

/// What a credential taken in with its key is, apart from the key: the fields of a
/// ``StoredCredential`` that do not depend on the store.
public struct CredentialTemplate: Sendable, Hashable {
    /// The credential ID.
    public var id: [UInt8]
    /// The relying party ID.
    public var rpID: String
    /// The user handle; empty for a server-side credential without one.
    public var userHandle: [UInt8]
    /// The user's account name.
    public var userName: String
    /// The user's display name.
    public var userDisplayName: String
    /// The name of the profile the credential behaves by (its counter, its UV).
    public var profile: String
    /// The BE flag.
    public var backupEligible: Bool
    /// The BS flag.
    public var backupState: Bool
    /// Whether it is discoverable.
    public var discoverable: Bool
    /// The signature counter to start from.
    public var signCount: UInt32
    /// When it was made.
    public var createdAt: Date
    /// Its `credProtect` policy (CTAP 2.1 §12.1); `nil` is level 1.
    public var credentialProtection: CredentialProtectionPolicy?
    /// Its `credBlob` (CTAP 2.1 §12.2).
    public var credBlob: [UInt8]?

    /// Describes a credential; the defaults are a new server-side credential.
    public init(
        id: [UInt8], rpID: String, userHandle: [UInt8] = [], userName: String = "", userDisplayName: String = "",
        profile: String, backupEligible: Bool = false, backupState: Bool = false, discoverable: Bool = false,
        signCount: UInt32 = 0, createdAt: Date = Date()
    ) {
        self.id = id
        self.rpID = rpID
        self.userHandle = userHandle
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.profile = profile
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.discoverable = discoverable
        self.signCount = signCount
        self.createdAt = createdAt
    }

    /// The template of an existing credential: a copy keeps everything but the key's custody.
    public init(of stored: StoredCredential) {
        self.init(
            id: stored.id, rpID: stored.rpID, userHandle: stored.userHandle, userName: stored.userName,
            userDisplayName: stored.userDisplayName, profile: stored.profile, backupEligible: stored.backupEligible,
            backupState: stored.backupState, discoverable: stored.discoverable, signCount: stored.signCount,
            createdAt: stored.createdAt)
        credentialProtection = stored.credentialProtection
        credBlob = stored.credBlob
    }
}
