public import FoundationEssentials
public import WebAuthn

/// The answer to a passkey signup challenge (`POST /passkey/register`): what the authenticator
/// needs to create the passkey, and the session the token request must echo (spec §1.2, §1.3).
///
/// ```
/// { "auth_session": "…",
///   "authn_params_public_key": { "challenge": "<base64url>", "rp": { "id": "login.example.com", … },
///                                "user": { "id": "<base64url>", "name": "ada@example.com", … }, … } }
/// ```
///
/// ``options`` is the whole of `authn_params_public_key` as WebAuthn L3 creation options, for an
/// authenticator that takes the JSON form; members Auth0 left out take the values a browser would
/// show (`rp.name` = `rp.id`, `user.displayName` = `user.name`).
///
/// The description and mirror leave out the session and the challenge, so printing or dumping a
/// challenge puts no secret in a log.
public struct PasskeySignupChallenge: Sendable, Hashable, Decodable, CustomStringConvertible, CustomReflectable {
    /// `auth_session`: the opaque, single-use session of this signup.
    public let authenticationSession: String
    /// `rp.id`: the RP ID the passkey is created for.
    public let relyingPartyId: String
    /// `user.id`: the user handle Auth0 generated.
    public let userId: Data
    /// `user.name`: the identifier the user signs up with.
    public let userName: String
    /// `challenge`, decoded.
    public let challengeData: Data
    /// `authn_params_public_key` as WebAuthn L3 creation options.
    public let options: PublicKeyCredentialCreationOptionsJSON

    /// Creates a challenge from its parts, as Auth0.swift 2.21.1 allows.
    ///
    /// - Parameters:
    ///   - authenticationSession: the session.
    ///   - relyingPartyId: the RP ID.
    ///   - userId: the user handle.
    ///   - userName: the user's identifier.
    ///   - challengeData: the challenge bytes.
    public init(
        authenticationSession: String, relyingPartyId: String, userId: Data, userName: String, challengeData: Data
    ) {
        self.authenticationSession = authenticationSession
        self.relyingPartyId = relyingPartyId
        self.userId = userId
        self.userName = userName
        self.challengeData = challengeData
        self.options = PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: relyingPartyId, id: relyingPartyId),
            user: PublicKeyCredentialUserEntityJSON(
                id: Base64URL(Array(userId)), name: userName, displayName: userName),
            challenge: Base64URL(Array(challengeData)),
            pubKeyCredParams: [])
    }

    private enum Keys: String, CodingKey {
        case authSession = "auth_session"
        case options = "authn_params_public_key"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let wire = try container.decode(CreationOptionsWire.self, forKey: .options)
        authenticationSession = try container.decode(String.self, forKey: .authSession)
        relyingPartyId = wire.relyingPartyId
        userId = Data(wire.options.user.id.bytes)
        userName = wire.options.user.name
        challengeData = Data(wire.options.challenge.bytes)
        options = wire.options
    }

    public var description: String {
        "PasskeySignupChallenge(relyingPartyId: \(relyingPartyId), userName: \(userName), session: <redacted>)"
    }

    public var customMirror: Mirror { Mirror(self, children: []) }
}
