public import FoundationEssentials
public import WebAuthn

/// A passkey registered to a user: the credential record of WebAuthn L3 §4 plus what My Account
/// reports about it (auth0-passkey-api.md §5.4).
public struct TenantCredential: Sendable, Hashable {
    /// The credential ID.
    public var id: [UInt8]
    /// My Account's authentication method ID, `passkey|dev_<hex>`.
    public var methodID: String
    /// The owner's user ID.
    public var userID: String
    /// The COSE_Key bytes received at registration.
    public var publicKey: [UInt8]
    /// The credential's algorithm.
    public var algorithm: COSEAlgorithm
    /// The signature counter last seen.
    public var signCount: UInt32
    /// BE at registration; never changes (WebAuthn L3 §6.1.3).
    public var backupEligible: Bool
    /// BS last seen.
    public var backedUp: Bool
    /// The authenticator model.
    public var aaguid: AAGUID
    /// The transports the client reported, if any.
    public var transports: [String]
    /// The `User-Agent` of the client that registered it, if known.
    public var userAgent: String?
    /// When it was registered.
    public var createdAt: Date
    /// When it last signed in.
    public var lastAuthenticatedAt: Date?
    /// The name the user gave it through My Account (auth0-passkey-api.md §19.1), if any.
    public var name: String? = nil
    /// The user handle this passkey carries when it is not its owner's: a passkey added through
    /// the Management API with its own `user_handle` (auth0-passkey-api.md §15.3); nil for the
    /// owner's handle.
    public var userHandle: [UInt8]? = nil

    /// The record the relying party verifies assertions with: the passkey's own user handle when
    /// it has one, else its owner's `userHandle`.
    func record(userHandle: [UInt8]) -> CredentialRecord {
        CredentialRecord(
            id: id, publicKey: publicKey, signCount: signCount, backupEligible: backupEligible,
            userHandle: self.userHandle ?? userHandle)
    }

    /// A new authentication method ID, `passkey|dev_<16 hex digits>`.
    static func newMethodID() -> String {
        "passkey|dev_" + Hex.encode(SecureRandom.bytes(8))
    }

    /// The credential as `excludeCredentials` lists it (auth0-passkey-api.md §19.3): its ID, and
    /// the transports the client reported when there were any.
    var descriptor: PublicKeyCredentialDescriptorJSON {
        PublicKeyCredentialDescriptorJSON(
            id: Base64URL(id), transports: transports.isEmpty ? nil : transports.map(AuthenticatorTransport.init))
    }

    /// The credential a verified registration describes.
    static func registered(
        _ registration: VerifiedRegistration, userID: String, transports: [String], userAgent: String?,
        at time: Date
    ) -> TenantCredential {
        TenantCredential(
            id: registration.credentialID, methodID: newMethodID(),
            userID: userID, publicKey: registration.credentialPublicKey, algorithm: registration.algorithm,
            signCount: registration.signCount, backupEligible: registration.backupEligible,
            backedUp: registration.backupState, aaguid: registration.aaguid, transports: transports,
            userAgent: userAgent, createdAt: time, lastAuthenticatedAt: nil)
    }
}
