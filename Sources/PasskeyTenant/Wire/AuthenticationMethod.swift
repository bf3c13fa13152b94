import FoundationEssentials
import WebAuthn

/// A passkey as My Account reports it (auth0-passkey-api.md §5.4): the verify answer and each
/// item of the list.
///
/// `public_key` is the COSE key in **padded standard** base64, `created_at` ISO 8601 with
/// milliseconds, `credential_backed_up` a JSON boolean; the SDK fails on anything else.
public struct AuthenticationMethod: Sendable, Hashable, Codable {
    public var id: String
    public var type: String
    /// The name the user gave it (`PATCH`, auth0-passkey-api.md §19.1); **[local]** on passkeys.
    public var name: String?
    public var identityUserID: String
    public var userAgent: String?
    public var keyID: String
    public var publicKey: String
    public var userHandle: String
    public var credentialDeviceType: String
    public var credentialBackedUp: Bool
    public var createdAt: String
    public var lastAuthAt: String?
    public var aaguid: String
    public var relyingPartyID: String
    public var usage: [String]
    public var transports: [String]?

    enum CodingKeys: String, CodingKey {
        case id, type, name, aaguid, usage, transports
        case identityUserID = "identity_user_id"
        case userAgent = "user_agent"
        case keyID = "key_id"
        case publicKey = "public_key"
        case userHandle = "user_handle"
        case credentialDeviceType = "credential_device_type"
        case credentialBackedUp = "credential_backed_up"
        case createdAt = "created_at"
        case lastAuthAt = "last_auth_at"
        case relyingPartyID = "relying_party_id"
    }

    /// The method that describes `credential`, owned by `user`, under RP ID `relyingPartyID`.
    init(_ credential: TenantCredential, user: TenantUser, relyingPartyID: String) {
        let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        id = credential.methodID
        type = "passkey"
        name = credential.name
        identityUserID = user.identityUserID
        userAgent = credential.userAgent
        keyID = Base64URL.encode(credential.id)
        publicKey = Data(credential.publicKey).base64EncodedString()
        userHandle = Base64URL.encode(credential.userHandle ?? user.userHandle)
        credentialDeviceType = credential.backupEligible ? "multi_device" : "single_device"
        credentialBackedUp = credential.backedUp
        createdAt = credential.createdAt.formatted(timestamp)
        lastAuthAt = credential.lastAuthenticatedAt?.formatted(timestamp)
        aaguid = credential.aaguid.description
        self.relyingPartyID = relyingPartyID
        usage = ["primary"]
        transports = credential.transports.isEmpty ? nil : credential.transports
    }
}

/// `GET /me/v1/authentication-methods`'s answer (auth0-passkey-api.md §5.5).
public struct AuthenticationMethodList: Sendable, Hashable, Codable {
    public var authenticationMethods: [AuthenticationMethod]

    enum CodingKeys: String, CodingKey {
        case authenticationMethods = "authentication_methods"
    }
}
