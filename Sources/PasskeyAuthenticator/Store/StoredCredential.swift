public import FoundationEssentials
public import WebAuthn

/// What an authenticator keeps for one credential (WebAuthn L3 §6.1 "public key credential
/// source", plus the signature counter and the hmac-secret seeds of CTAP 2.1 §12.5).
///
/// Secrets are kept sealed only: the private key as ``SigningKey/sealedPKCS8(using:authenticating:)``
/// and the two hmac-secret seeds (`CredRandomWithUV`, `CredRandomWithoutUV`) as ``AESGCM`` seals,
/// each under the store key and bound to this record by its associated data:
///
/// ```
/// associatedData(purpose) = "SoftPasskey " ‖ purpose ‖ 0x00 ‖ uint16be(len(id)) ‖ id ‖ UTF-8(rpID)
/// purpose                 = "private-key" / "prf-with-uv" / "prf-without-uv"
/// ```
///
/// so a sealed key moved to another record, or to another field, no longer opens.
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
    /// The private key, sealed under the store key (see the type's discussion).
    public let sealedPrivateKey: [UInt8]
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
    /// The hmac-secret seed used when the user is verified, sealed; `nil` without the extension.
    public let sealedPRFSecretWithUV: [UInt8]?
    /// The hmac-secret seed used when the user is not verified, sealed; `nil` without the extension.
    public let sealedPRFSecretWithoutUV: [UInt8]?

    /// Makes a record, sealing its secrets under `sealingKey`.
    ///
    /// - Parameters:
    ///   - id: the credential ID.
    ///   - rpID: the relying party ID.
    ///   - userHandle: the user handle.
    ///   - userName: the user's account name.
    ///   - userDisplayName: the user's display name.
    ///   - privateKey: the credential key; its algorithm and public key are recorded.
    ///   - sealingKey: the store key (``CredentialStore/sealingKey``).
    ///   - profile: the authenticator profile's name.
    ///   - backupEligible: the BE flag.
    ///   - backupState: the BS flag.
    ///   - discoverable: whether the credential is discoverable.
    ///   - prfSecretWithUV: the hmac-secret seed for user-verified requests, if any.
    ///   - prfSecretWithoutUV: the hmac-secret seed for other requests, if any.
    ///   - signCount: the initial counter, usually 0.
    ///   - createdAt: the creation time; kept to the millisecond.
    /// - Throws: `WebAuthnError` when OpenSSL cannot export or seal the key.
    public init(
        id: [UInt8], rpID: String, userHandle: [UInt8], userName: String, userDisplayName: String,
        privateKey: SigningKey, sealingKey: SymmetricKey, profile: String, backupEligible: Bool,
        backupState: Bool, discoverable: Bool, prfSecretWithUV: SymmetricKey? = nil,
        prfSecretWithoutUV: SymmetricKey? = nil, signCount: UInt32 = 0, createdAt: Date
    ) throws(WebAuthnError) {
        self.id = id
        self.rpID = rpID
        self.userHandle = userHandle
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.algorithm = privateKey.algorithm
        self.sealedPrivateKey = try privateKey.sealedPKCS8(
            using: sealingKey, authenticating: Self.associatedData(.privateKey, id: id, rpID: rpID))
        self.publicKeySPKI = try privateKey.publicKey.spki
        self.signCount = signCount
        self.createdAt = Self.milliseconds(Self.milliseconds(createdAt))
        self.profile = profile
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.discoverable = discoverable
        self.sealedPRFSecretWithUV = try prfSecretWithUV.map { (secret) throws(WebAuthnError) in
            try Self.seal(secret, .prfWithUV, id: id, rpID: rpID, using: sealingKey)
        }
        self.sealedPRFSecretWithoutUV = try prfSecretWithoutUV.map { (secret) throws(WebAuthnError) in
            try Self.seal(secret, .prfWithoutUV, id: id, rpID: rpID, using: sealingKey)
        }
    }

    /// The public key, read back from ``publicKeySPKI`` with ``algorithm`` set.
    ///
    /// - Throws: `WebAuthnError` with `invalid-key` when the stored SPKI does not parse.
    public var publicKey: COSEKey {
        get throws(WebAuthnError) { try COSEKey(spki: publicKeySPKI, algorithm: algorithm) }
    }

    /// Opens the private key.
    ///
    /// - Parameter sealingKey: the store key it was sealed with.
    /// - Returns: the signing key.
    /// - Throws: `WebAuthnError` with `decryption-failed` for another key, another record's
    ///   sealed key or tampered bytes.
    public func privateKey(using sealingKey: SymmetricKey) throws(WebAuthnError) -> SigningKey {
        try SigningKey(
            sealedPKCS8: sealedPrivateKey, using: sealingKey,
            authenticating: Self.associatedData(.privateKey, id: id, rpID: rpID))
    }

    /// Opens one of the hmac-secret seeds (CTAP 2.1 §12.5: `CredRandomWithUV` or
    /// `CredRandomWithoutUV`).
    ///
    /// - Parameters:
    ///   - userVerified: whether the request verified the user.
    ///   - sealingKey: the store key.
    /// - Returns: the seed, or `nil` when the credential has none.
    /// - Throws: `WebAuthnError` with `decryption-failed` for another key or tampered bytes.
    public func prfSecret(userVerified: Bool, using sealingKey: SymmetricKey) throws(WebAuthnError) -> SymmetricKey? {
        let purpose: SealPurpose = userVerified ? .prfWithUV : .prfWithoutUV
        guard let sealed = userVerified ? sealedPRFSecretWithUV : sealedPRFSecretWithoutUV else {
            return nil
        }
        var bytes = try AESGCM.open(
            sealed, using: sealingKey, authenticating: Self.associatedData(purpose, id: id, rpID: rpID))
        defer { secureZero(&bytes) }
        return try SymmetricKey(bytes: bytes)
    }

    /// Checks that every sealed field opens under `sealingKey` for this record, without keeping
    /// what it opens; how the store tells a tampered or swapped record from a good one.
    ///
    /// - Throws: `WebAuthnError` with `decryption-failed` naming the field that does not open.
    package func checkSealedFields(using sealingKey: SymmetricKey) throws(WebAuthnError) {
        let fields: [(SealPurpose, [UInt8]?)] = [
            (.privateKey, sealedPrivateKey), (.prfWithUV, sealedPRFSecretWithUV),
            (.prfWithoutUV, sealedPRFSecretWithoutUV),
        ]
        for case let (purpose, sealed?) in fields {
            do {
                var opened = try AESGCM.open(
                    sealed, using: sealingKey, authenticating: Self.associatedData(purpose, id: id, rpID: rpID))
                secureZero(&opened)
            } catch {
                throw WebAuthnError(
                    .decryptionFailed, "the sealed \(purpose.rawValue) does not open under the store key")
            }
        }
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
            ],
            displayStyle: .struct)
    }

    // MARK: Sealing

    /// What a sealed field holds; part of its associated data.
    enum SealPurpose: String {
        case privateKey = "private-key"
        case prfWithUV = "prf-with-uv"
        case prfWithoutUV = "prf-without-uv"
    }

    /// The associated data binding a sealed field to its purpose, credential ID and RP ID (see the
    /// type's discussion); the ID's length prefix keeps the split between ID and RP ID unambiguous.
    static func associatedData(_ purpose: SealPurpose, id: [UInt8], rpID: String) -> [UInt8] {
        precondition(id.count <= Int(UInt16.max), "a credential ID is at most 65535 bytes")
        return Array("SoftPasskey \(purpose.rawValue)".utf8) + [0, UInt8(id.count >> 8), UInt8(id.count & 0xFF)]
            + id + Array(rpID.utf8)
    }

    private static func seal(
        _ secret: SymmetricKey, _ purpose: SealPurpose, id: [UInt8], rpID: String, using sealingKey: SymmetricKey
    ) throws(WebAuthnError) -> [UInt8] {
        var bytes = secret.withUnsafeBytes { Array($0) }
        defer { secureZero(&bytes) }
        return try AESGCM.seal(bytes, using: sealingKey, authenticating: associatedData(purpose, id: id, rpID: rpID))
    }

    // MARK: Coding

    private enum CodingKeys: String, CodingKey {
        case id, rpID, userHandle, userName, userDisplayName, algorithm, sealedPrivateKey
        case publicKeySPKI = "publicKey"
        case signCount, createdAt, profile, backupEligible, backupState, discoverable
        case sealedPRFSecretWithUV = "prfSecretWithUV"
        case sealedPRFSecretWithoutUV = "prfSecretWithoutUV"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Base64URL.self, forKey: .id).bytes
        rpID = try container.decode(String.self, forKey: .rpID)
        userHandle = try container.decode(Base64URL.self, forKey: .userHandle).bytes
        userName = try container.decode(String.self, forKey: .userName)
        userDisplayName = try container.decode(String.self, forKey: .userDisplayName)
        algorithm = try container.decode(COSEAlgorithm.self, forKey: .algorithm)
        sealedPrivateKey = try container.decode(Base64URL.self, forKey: .sealedPrivateKey).bytes
        publicKeySPKI = try container.decode(Base64URL.self, forKey: .publicKeySPKI).bytes
        signCount = try container.decode(UInt32.self, forKey: .signCount)
        createdAt = Self.milliseconds(try container.decode(Int64.self, forKey: .createdAt))
        profile = try container.decode(String.self, forKey: .profile)
        backupEligible = try container.decode(Bool.self, forKey: .backupEligible)
        backupState = try container.decode(Bool.self, forKey: .backupState)
        discoverable = try container.decode(Bool.self, forKey: .discoverable)
        sealedPRFSecretWithUV = try container.decodeIfPresent(Base64URL.self, forKey: .sealedPRFSecretWithUV)?.bytes
        sealedPRFSecretWithoutUV = try container.decodeIfPresent(
            Base64URL.self, forKey: .sealedPRFSecretWithoutUV)?.bytes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Base64URL(id), forKey: .id)
        try container.encode(rpID, forKey: .rpID)
        try container.encode(Base64URL(userHandle), forKey: .userHandle)
        try container.encode(userName, forKey: .userName)
        try container.encode(userDisplayName, forKey: .userDisplayName)
        try container.encode(algorithm, forKey: .algorithm)
        try container.encode(Base64URL(sealedPrivateKey), forKey: .sealedPrivateKey)
        try container.encode(Base64URL(publicKeySPKI), forKey: .publicKeySPKI)
        try container.encode(signCount, forKey: .signCount)
        try container.encode(Self.milliseconds(createdAt), forKey: .createdAt)
        try container.encode(profile, forKey: .profile)
        try container.encode(backupEligible, forKey: .backupEligible)
        try container.encode(backupState, forKey: .backupState)
        try container.encode(discoverable, forKey: .discoverable)
        try container.encodeIfPresent(sealedPRFSecretWithUV.map(Base64URL.init), forKey: .sealedPRFSecretWithUV)
        try container.encodeIfPresent(
            sealedPRFSecretWithoutUV.map(Base64URL.init), forKey: .sealedPRFSecretWithoutUV)
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
