import FoundationEssentials
public import WebAuthn

/// A passkey to attach to a user: the body of `POST /api/v2/users/{id}/authentication-methods`
/// with `type: "passkey"` (spec §15.3). Auth0 confirms it at once.
///
/// ```json
/// {"type":"passkey","key_id":"cpZVU-ov17HGlsjBkf3mSqJ5pDs","public_key":"pQECAyYgASFYIMmZ…9lg=",
///  "user_handle":"uOKcVB2PU486niGkaj1TzCo0a15AkM1QD1Z_3WGANJI","aaguid":"00000000-0000-0000-0000-000000000000",
///  "relying_party_identifier":"login.example.com","credential_device_type":"multi_device",
///  "credential_backed_up":true,"transports":["internal"]}
/// ```
///
/// `key_id` and `user_handle` are base64url without padding; `public_key` is the COSE_Key
/// (RFC 9052 §7) in **standard base64, padded**, as Auth0 stores it and My Account returns it
/// (spec §5.4). The passkey logs in only if the authenticator returns the same user handle, so
/// `userHandle` must be the one the passkey was made with. `nil` members are left out.
public struct NewPasskeyMethod: Sendable, Hashable, Encodable {
    /// `key_id`: the credential ID.
    public var credentialID: [UInt8]
    /// `public_key`: the credential public key as COSE_Key bytes.
    public var publicKey: [UInt8]
    /// `user_handle`: the WebAuthn user handle the passkey was made with (WebAuthn L3 §5.4.3,
    /// `user.id`).
    public var userHandle: [UInt8]
    /// `aaguid`: the authenticator model.
    public var aaguid: AAGUID?
    /// `relying_party_identifier`: the RP ID the passkey is for.
    public var relyingPartyIdentifier: String?
    /// `credential_device_type`: from the backup-eligible flag (WebAuthn L3 §6.1.3).
    public var deviceType: PasskeyAuthenticationMethod.DeviceType?
    /// `credential_backed_up`: the backup-state flag.
    public var isBackedUp: Bool?
    /// `transports`, such as `["internal", "hybrid"]`.
    public var transports: [AuthenticatorTransport]?
    /// `name`: a label for the method.
    public var name: String?
    /// `identity_user_id`: the identity (without `auth0|`) the method belongs to.
    public var identityUserId: String?
    /// `user_agent`.
    public var userAgent: String?

    /// Creates a passkey method from its parts.
    ///
    /// - Parameters:
    ///   - credentialID: the credential ID.
    ///   - publicKey: the COSE_Key bytes.
    ///   - userHandle: the user handle the passkey was made with.
    ///   - aaguid: the authenticator's AAGUID.
    ///   - relyingPartyIdentifier: the RP ID.
    ///   - deviceType: single or multi device.
    ///   - isBackedUp: whether it is backed up.
    ///   - transports: the transports.
    public init(
        credentialID: [UInt8], publicKey: [UInt8], userHandle: [UInt8], aaguid: AAGUID? = nil,
        relyingPartyIdentifier: String? = nil, deviceType: PasskeyAuthenticationMethod.DeviceType? = nil,
        isBackedUp: Bool? = nil, transports: [AuthenticatorTransport]? = nil
    ) {
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.userHandle = userHandle
        self.aaguid = aaguid
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.deviceType = deviceType
        self.isBackedUp = isBackedUp
        self.transports = transports
    }

    /// The method of a passkey an authenticator just made: the credential ID, COSE key and AAGUID
    /// of its attested credential data, the device type and backup state of its flags (BE, BS;
    /// WebAuthn L3 §6.1), and the transports of the response (§5.2.1).
    ///
    /// - Parameters:
    ///   - registration: the registration response.
    ///   - userHandle: the `user.id` of the creation options it answered.
    ///   - relyingPartyIdentifier: the RP ID it was made for.
    /// - Throws: `WebAuthnError` when the attestation object does not decode or carries no new
    ///   credential.
    public init(
        registration: RegistrationResponseJSON, userHandle: [UInt8], relyingPartyIdentifier: String
    ) throws(WebAuthnError) {
        let authenticatorData = try AttestationObject(bytes: registration.response.attestationObject.bytes)
            .authenticatorData
        guard let credential = authenticatorData.attestedCredentialData else {
            throw WebAuthnError(.attestedCredentialDataMissing, "authData carries no attested credential data")
        }
        let flags = authenticatorData.flags
        self.init(
            credentialID: credential.credentialID, publicKey: credential.credentialPublicKey, userHandle: userHandle,
            aaguid: credential.aaguid, relyingPartyIdentifier: relyingPartyIdentifier,
            deviceType: flags.contains(.backupEligible) ? .multiDevice : .singleDevice,
            isBackedUp: flags.contains(.backupState), transports: registration.response.transports)
    }

    enum CodingKeys: String, CodingKey {
        case type, aaguid, transports, name
        case credentialID = "key_id"
        case publicKey = "public_key"
        case userHandle = "user_handle"
        case relyingPartyIdentifier = "relying_party_identifier"
        case deviceType = "credential_device_type"
        case isBackedUp = "credential_backed_up"
        case identityUserId = "identity_user_id"
        case userAgent = "user_agent"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("passkey", forKey: .type)
        try container.encode(Base64URL.encode(credentialID), forKey: .credentialID)
        try container.encode(Data(publicKey).base64EncodedString(), forKey: .publicKey)
        try container.encode(Base64URL.encode(userHandle), forKey: .userHandle)
        try container.encodeIfPresent(aaguid?.description, forKey: .aaguid)
        try container.encodeIfPresent(relyingPartyIdentifier, forKey: .relyingPartyIdentifier)
        try container.encodeIfPresent(deviceType, forKey: .deviceType)
        try container.encodeIfPresent(isBackedUp, forKey: .isBackedUp)
        try container.encodeIfPresent(transports?.map(\.rawValue), forKey: .transports)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(identityUserId, forKey: .identityUserId)
        try container.encodeIfPresent(userAgent, forKey: .userAgent)
    }
}
