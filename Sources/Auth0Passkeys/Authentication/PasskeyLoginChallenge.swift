public import FoundationEssentials
public import WebAuthn

/// The answer to a passkey login challenge (`POST /passkey/challenge`): what the authenticator
/// needs to sign in with a discoverable passkey, and the session the token request must echo
/// (spec §2.2, §2.3).
///
/// ```
/// { "auth_session": "…",
///   "authn_params_public_key": { "challenge": "<base64url>", "rpId": "login.example.com",
///                                "timeout": 60000, "userVerification": "preferred" } }
/// ```
///
/// The description and mirror leave out the session and the challenge.
public struct PasskeyLoginChallenge: Sendable, Hashable, Decodable, CustomStringConvertible, CustomReflectable {
    /// `auth_session`: the opaque, single-use session of this login.
    public let authenticationSession: String
    /// `rpId`: the RP ID to sign for.
    public let relyingPartyId: String
    /// `challenge`, decoded.
    public let challengeData: Data
    /// `authn_params_public_key` as WebAuthn L3 request options.
    public let options: PublicKeyCredentialRequestOptionsJSON

    /// Creates a challenge from its parts, as Auth0.swift 2.21.1 allows.
    ///
    /// - Parameters:
    ///   - authenticationSession: the session.
    ///   - relyingPartyId: the RP ID.
    ///   - challengeData: the challenge bytes.
    public init(authenticationSession: String, relyingPartyId: String, challengeData: Data) {
        self.authenticationSession = authenticationSession
        self.relyingPartyId = relyingPartyId
        self.challengeData = challengeData
        self.options = PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URL(Array(challengeData)), rpId: relyingPartyId)
    }

    private enum Keys: String, CodingKey {
        case authSession = "auth_session"
        case options = "authn_params_public_key"
    }

    private enum OptionKeys: String, CodingKey {
        case challenge, rpId, timeout, userVerification, allowCredentials, hints, extensions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        authenticationSession = try container.decode(String.self, forKey: .authSession)
        let wire = try container.nestedContainer(keyedBy: OptionKeys.self, forKey: .options)
        relyingPartyId = try wire.decode(String.self, forKey: .rpId)
        let challenge = try wire.decode(Base64URL.self, forKey: .challenge)
        challengeData = Data(challenge.bytes)
        options = PublicKeyCredentialRequestOptionsJSON(
            challenge: challenge,
            timeout: wire.lenient(UInt32.self, .timeout),
            rpId: relyingPartyId,
            allowCredentials: wire.lenient([PublicKeyCredentialDescriptorJSON].self, .allowCredentials),
            userVerification: wire.lenient(UserVerificationRequirement.self, .userVerification),
            hints: wire.lenient([PublicKeyCredentialHint].self, .hints),
            extensions: wire.lenient(AuthenticationExtensionsClientInputsJSON.self, .extensions))
    }

    public var description: String {
        "PasskeyLoginChallenge(relyingPartyId: \(relyingPartyId), session: <redacted>)"
    }

    public var customMirror: Mirror { Mirror(self, children: []) }
}
