public import FoundationEssentials
import WebAuthn

/// What an authenticator needs to choose among a relying party's credentials, without opening
/// any of them: no key, no counter, nothing sealed.
///
/// A ceremony lists the summaries of its RP (``CredentialStore/summaries(rpID:)``), picks one
/// (WebAuthn L3 §6.3.3 step 7: the allowed or discoverable credentials; §6.1.2 step 17: the
/// credential a new one for the same user handle replaces), and only then reads that one
/// credential with ``CredentialStore/credential(id:)``. ``FileCredentialStore`` answers this from
/// its index, so the cost does not grow with the number of credentials it holds.
public struct CredentialSummary: Sendable, Hashable, CustomStringConvertible {
    /// The credential ID.
    public let id: [UInt8]
    /// The relying party the credential is scoped to.
    public let rpID: String
    /// The relying party's opaque user handle (WebAuthn L3 §5.4.3 `user.id`).
    public let userHandle: [UInt8]
    /// The user's account name (`user.name`).
    public let userName: String
    /// When the credential was made, to the millisecond.
    public let createdAt: Date
    /// Whether the credential is discoverable (a resident key).
    public let discoverable: Bool

    /// Creates a summary from its parts.
    ///
    /// - Parameters:
    ///   - id: the credential ID.
    ///   - rpID: the relying party ID.
    ///   - userHandle: the user handle.
    ///   - userName: the user's account name.
    ///   - createdAt: the creation time.
    ///   - discoverable: whether the credential is discoverable.
    public init(
        id: [UInt8], rpID: String, userHandle: [UInt8], userName: String, createdAt: Date, discoverable: Bool
    ) {
        self.id = id
        self.rpID = rpID
        self.userHandle = userHandle
        self.userName = userName
        self.createdAt = createdAt
        self.discoverable = discoverable
    }

    /// The summary of a stored credential.
    ///
    /// - Parameter credential: the credential.
    public init(_ credential: StoredCredential) {
        self.init(
            id: credential.id, rpID: credential.rpID, userHandle: credential.userHandle,
            userName: credential.userName, createdAt: credential.createdAt, discoverable: credential.discoverable)
    }

    public var description: String {
        "CredentialSummary(id: \(Base64URL.encode(id)), rp: \(rpID), user: \(userName))"
    }

    /// The order every listing uses: newest first, ties by ID bytes, so that "the most recent
    /// credential" is one and the same in every store and every process.
    static func newestFirst(_ a: (createdAt: Date, id: [UInt8]), _ b: (createdAt: Date, id: [UInt8])) -> Bool {
        a.createdAt != b.createdAt ? a.createdAt > b.createdAt : a.id.lexicographicallyPrecedes(b.id)
    }
}
