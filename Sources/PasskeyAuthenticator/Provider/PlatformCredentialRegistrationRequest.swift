public import FoundationEssentials
public import WebAuthn

/// A request to register a passkey, shaped like Apple's
/// `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`; made by
/// ``PlatformCredentialProvider/createCredentialRegistrationRequest(challenge:name:userID:)``.
public struct PlatformCredentialRegistrationRequest: Sendable, Hashable {
    /// The relying party identifier (the RP ID).
    public let relyingPartyIdentifier: String
    /// The challenge from the relying party.
    public var challenge: Data
    /// The account name (`user.name`).
    public var name: String
    /// The display name (`user.displayName`); the account name when `nil`.
    public var displayName: String?
    /// The user handle (`user.id`).
    public var userID: Data
    /// Whether to verify the user; `preferred` by default, as on Apple's platforms.
    public var userVerificationPreference: UserVerificationRequirement
    /// The attestation the relying party wants; `none` by default.
    public var attestationPreference: AttestationConveyancePreference
    /// Credentials that must not be on the authenticator already.
    public var excludedCredentials: [Data]
    /// Whether to ask for the PRF extension (WebAuthn L3 §10.1.4).
    public var prf: Bool

    init(relyingPartyIdentifier: String, challenge: Data, name: String, userID: Data) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.challenge = challenge
        self.name = name
        self.displayName = nil
        self.userID = userID
        self.userVerificationPreference = .preferred
        self.attestationPreference = .none
        self.excludedCredentials = []
        self.prf = false
    }

    /// The request as WebAuthn creation options: ES256 then EdDSA, a discoverable credential.
    public var options: PublicKeyCredentialCreationOptionsJSON {
        PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: relyingPartyIdentifier, id: relyingPartyIdentifier),
            user: PublicKeyCredentialUserEntityJSON(
                id: Base64URL(Array(userID)), name: name, displayName: displayName ?? name),
            challenge: Base64URL(Array(challenge)),
            pubKeyCredParams: [.init(alg: COSEAlgorithm.es256.rawValue), .init(alg: COSEAlgorithm.eddsa.rawValue)],
            excludeCredentials: excludedCredentials.map { PublicKeyCredentialDescriptorJSON(id: Base64URL(Array($0))) },
            authenticatorSelection: AuthenticatorSelectionCriteria(
                residentKey: .required, requireResidentKey: true, userVerification: userVerificationPreference),
            attestation: attestationPreference,
            extensions: prf ? AuthenticationExtensionsClientInputsJSON(prf: .init()) : nil)
    }
}
