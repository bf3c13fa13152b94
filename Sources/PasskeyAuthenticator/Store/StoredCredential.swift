public import FoundationEssentials
public import WebAuthn

/// What an authenticator keeps for one credential (WebAuthn L3 §6.1 "public key credential
/// source", plus the signature counter and the hmac-secret seeds of CTAP 2.1 §12.5).
///
/// Secrets are never in it in the clear: the private key and the two hmac-secret seeds
/// (`CredRandomWithUV`, `CredRandomWithoutUV`) are blobs of the store that made them (a
/// ``CredentialKey``): sealed under the store key for the software stores (whose newer
/// credentials' seeds are derived from the store key instead, the blob saying so), a
/// reference into an HSM for a store over one. Only that store signs with them
/// (``CredentialStore/sign(_:with:)``).
///
/// On disk it is JSON with bytes as unpadded base64url and `createdAt` as integer milliseconds
/// since 1970 (DESIGN.md: The file-backed store). `description` and the mirror name the
/// credential, its relying party and its user, never the sealed bytes (STYLE §5).
public struct StoredCredential: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    /// The credential ID.
    public let id: [UInt8]
    /// The relying party the credential is scoped to.
    public let rpID: String
    /// The relying party's opaque user handle (WebAuthn L3 §5.4.3 `user.id`).
    public let userHandle: [UInt8]
    /// The user's account name (`user.name`).
    public var userName: String
    /// The user's display name (`user.displayName`).
    public var userDisplayName: String
    /// The algorithm the credential signs with.
    public let algorithm: COSEAlgorithm
    /// The private key's blob, which only the store that made it can use (``CredentialKey``).
    public let privateKeyBlob: [UInt8]
    /// The public key as a DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
    public let publicKeySPKI: [UInt8]
    /// The signature counter last released (WebAuthn L3 §6.1.1).
    public var signCount: UInt32
    /// When the credential was made, to the millisecond.
    public let createdAt: Date
    /// The authenticator profile that made it ("platform", "security-key", ...).
    public let profile: String
    /// The BE flag: the credential may be backed up (WebAuthn L3 §6.1).
    public let backupEligible: Bool
    /// The BS flag: the credential is backed up.
    public var backupState: Bool
    /// Whether the credential is discoverable (a resident key).
    public let discoverable: Bool
    /// The blob of the hmac-secret seed used when the user is verified; `nil` without one.
    public let prfSeedBlobWithUV: [UInt8]?
    /// The blob of the hmac-secret seed used when the user is not verified; `nil` without one.
    public let prfSeedBlobWithoutUV: [UInt8]?
    /// The `credProtect` policy the relying party chose (CTAP 2.1 §12.1); `nil` is level 1.
    public var credentialProtection: CredentialProtectionPolicy?
    /// The `credBlob` the relying party stored with the credential (CTAP 2.1 §12.2), at most
    /// ``AuthenticatorProfile/maxCredBlobLength`` bytes.
    public var credBlob: [UInt8]?

    /// Makes a record of a key a store made (``CredentialStore/makeKey(_:)``).
    ///
    /// - Parameters:
    ///   - id: the credential ID.
    ///   - rpID: the relying party ID.
    ///   - userHandle: the user handle.
    ///   - userName: the user's account name.
    ///   - userDisplayName: the user's display name.
    ///   - key: the key, as the store keeps it.
    ///   - profile: the authenticator profile's name.
    ///   - backupEligible: the BE flag.
    ///   - backupState: the BS flag.
    ///   - discoverable: whether the credential is discoverable.
    ///   - signCount: the initial counter, usually 0.
    ///   - createdAt: the creation time; kept to the millisecond.
    /// - Throws: `WebAuthnError` when the public key has no DER form.
    public init(
        id: [UInt8], rpID: String, userHandle: [UInt8], userName: String, userDisplayName: String,
        key: CredentialKey, profile: String, backupEligible: Bool, backupState: Bool, discoverable: Bool,
        signCount: UInt32 = 0, createdAt: Date
    ) throws(WebAuthnError) {
        self.id = id
        self.rpID = rpID
        self.userHandle = userHandle
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.algorithm = key.algorithm
        self.privateKeyBlob = key.privateKeyBlob
        self.publicKeySPKI = try key.publicKey.spki
        self.signCount = signCount
        self.createdAt = Self.milliseconds(Self.milliseconds(createdAt))
        self.profile = profile
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.discoverable = discoverable
        self.prfSeedBlobWithUV = key.prfSeedBlobWithUV
        self.prfSeedBlobWithoutUV = key.prfSeedBlobWithoutUV
    }

    /// The public key, read back from ``publicKeySPKI`` with ``algorithm`` set.
    ///
    /// - Throws: `WebAuthnError` with `invalid-key` when the stored SPKI does not parse.
    public var publicKey: COSEKey {
        get throws(WebAuthnError) { try COSEKey(spki: publicKeySPKI, algorithm: algorithm) }
    }

    public var description: String {
        "StoredCredential(id: \(Base64URL.encode(id)), rp: \(rpID), user: \(userName), \(algorithm), "
            + "signCount: \(signCount), profile: \(profile))"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "id": Base64URL.encode(id), "rpID": rpID, "userHandle": Base64URL.encode(userHandle),
                "userName": userName, "userDisplayName": userDisplayName, "algorithm": algorithm,
                "signCount": signCount, "createdAt": createdAt, "profile": profile,
                "backupEligible": backupEligible, "backupState": backupState, "discoverable": discoverable,
                "credentialProtection": credentialProtection as Any,
                "credBlob": credBlob.map { "\($0.count) bytes" } as Any,
            ],
            displayStyle: .struct)
    }

    // MARK: Coding

    private enum CodingKeys: String, CodingKey {
        case id, rpID, userHandle, userName, userDisplayName, algorithm
        case privateKeyBlob = "sealedPrivateKey"
        case publicKeySPKI = "publicKey"
        case signCount, createdAt, profile, backupEligible, backupState, discoverable
        case prfSeedBlobWithUV = "prfSecretWithUV"
        case prfSeedBlobWithoutUV = "prfSecretWithoutUV"
        case credentialProtection = "credProtect"
        case credBlob
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Base64URL.self, forKey: .id).bytes
        rpID = try container.decode(String.self, forKey: .rpID)
        userHandle = try container.decode(Base64URL.self, forKey: .userHandle).bytes
        userName = try container.decode(String.self, forKey: .userName)
        userDisplayName = try container.decode(String.self, forKey: .userDisplayName)
        algorithm = try container.decode(COSEAlgorithm.self, forKey: .algorithm)
        privateKeyBlob = try container.decode(Base64URL.self, forKey: .privateKeyBlob).bytes
        publicKeySPKI = try container.decode(Base64URL.self, forKey: .publicKeySPKI).bytes
        signCount = try container.decode(UInt32.self, forKey: .signCount)
        createdAt = Self.milliseconds(try container.decode(Int64.self, forKey: .createdAt))
        profile = try container.decode(String.self, forKey: .profile)
        backupEligible = try container.decode(Bool.self, forKey: .backupEligible)
        backupState = try container.decode(Bool.self, forKey: .backupState)
        discoverable = try container.decode(Bool.self, forKey: .discoverable)
        prfSeedBlobWithUV = try container.decodeIfPresent(Base64URL.self, forKey: .prfSeedBlobWithUV)?.bytes
        prfSeedBlobWithoutUV = try container.decodeIfPresent(Base64URL.self, forKey: .prfSeedBlobWithoutUV)?.bytes
        credentialProtection = try container.decodeIfPresent(
            CredentialProtectionPolicy.self, forKey: .credentialProtection)
        credBlob = try container.decodeIfPresent(Base64URL.self, forKey: .credBlob)?.bytes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Base64URL(id), forKey: .id)
        try container.encode(rpID, forKey: .rpID)
        try container.encode(Base64URL(userHandle), forKey: .userHandle)
        try container.encode(userName, forKey: .userName)
        try container.encode(userDisplayName, forKey: .userDisplayName)
        try container.encode(algorithm, forKey: .algorithm)
        try container.encode(Base64URL(privateKeyBlob), forKey: .privateKeyBlob)
        try container.encode(Base64URL(publicKeySPKI), forKey: .publicKeySPKI)
        try container.encode(signCount, forKey: .signCount)
        try container.encode(Self.milliseconds(createdAt), forKey: .createdAt)
        try container.encode(profile, forKey: .profile)
        try container.encode(backupEligible, forKey: .backupEligible)
        try container.encode(backupState, forKey: .backupState)
        try container.encode(discoverable, forKey: .discoverable)
        try container.encodeIfPresent(prfSeedBlobWithUV.map(Base64URL.init), forKey: .prfSeedBlobWithUV)
        try container.encodeIfPresent(prfSeedBlobWithoutUV.map(Base64URL.init), forKey: .prfSeedBlobWithoutUV)
        try container.encodeIfPresent(credentialProtection, forKey: .credentialProtection)
        try container.encodeIfPresent(credBlob.map(Base64URL.init), forKey: .credBlob)
    }

    /// Whole milliseconds since 1970, rounded to nearest so that converting back and forth is
    /// stable (a date made by the other overload maps to the same count).
    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    private static func milliseconds(_ count: Int64) -> Date {
        Date(timeIntervalSince1970: Double(count) / 1000)
    }
}
