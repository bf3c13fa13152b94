public import FoundationEssentials
public import WebAuthn

/// A request to sign in with a passkey, shaped like Apple's
/// `ASAuthorizationPlatformPublicKeyCredentialAssertionRequest`; made by
/// ``PlatformCredentialProvider/createCredentialAssertionRequest(challenge:)``.
public struct PlatformCredentialAssertionRequest: Sendable, Hashable {
    /// The relying party identifier (the RP ID).
    public let relyingPartyIdentifier: String
    /// The challenge from the relying party.
    public var challenge: Data
    /// Acceptable credential IDs; empty lets the user pick any passkey for the RP.
    public var allowedCredentials: [Data]
    /// Whether to verify the user; `preferred` by default.
    public var userVerificationPreference: UserVerificationRequirement

    init(relyingPartyIdentifier: String, challenge: Data) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.challenge = challenge
        self.allowedCredentials = []
        self.userVerificationPreference = .preferred
    }

    /// The request as WebAuthn request options.
    public var options: PublicKeyCredentialRequestOptionsJSON {
        PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URL(Array(challenge)), rpId: relyingPartyIdentifier,
            allowCredentials: allowedCredentials.map { PublicKeyCredentialDescriptorJSON(id: Base64URL(Array($0))) },
            userVerification: userVerificationPreference)
    }
}
