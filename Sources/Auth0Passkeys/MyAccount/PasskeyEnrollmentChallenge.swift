public import FoundationEssentials
public import WebAuthn

/// The answer to a My Account passkey enrollment challenge (`POST /me/v1/authentication-methods`,
/// 202 Accepted): the pending method's ID from `Location`, the session, and what the authenticator
/// needs to create the passkey (spec §5.2).
///
/// ```
/// HTTP/1.1 202 Accepted
/// Location: https://login.example.com/me/v1/authentication-methods/passkey%7Cnew
///
/// { "auth_session": "…", "authn_params_public_key": { "challenge": "…", "rp": { "id": "…" },
///                                                      "user": { "id": "…", "name": "…" }, … } }
/// ```
///
/// The description and mirror leave out the session and the challenge.
public struct PasskeyEnrollmentChallenge: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The pending method's ID: the last path segment of `Location`, still percent-encoded.
    public let authenticationMethodId: String
    /// The body, whose shape is a signup challenge's: session, RP, user and options.
    private let body: PasskeySignupChallenge

    /// `auth_session`: the opaque, single-use session of this enrollment.
    public var authenticationSession: String { body.authenticationSession }
    /// `rp.id`.
    public var relyingPartyId: String { body.relyingPartyId }
    /// `user.id`: the user's WebAuthn user handle.
    public var userId: Data { body.userId }
    /// `user.name`.
    public var userName: String { body.userName }
    /// `challenge`, decoded.
    public var challengeData: Data { body.challengeData }
    /// `authn_params_public_key` as WebAuthn L3 creation options.
    public var options: PublicKeyCredentialCreationOptionsJSON { body.options }

    /// Creates a challenge from its parts, as Auth0.swift 2.21.1 allows.
    ///
    /// - Parameters:
    ///   - authenticationMethodId: the pending method's ID.
    ///   - authenticationSession: the session.
    ///   - relyingPartyId: the RP ID.
    ///   - userId: the user handle.
    ///   - userName: the user's identifier.
    ///   - challengeData: the challenge bytes.
    public init(
        authenticationMethodId: String, authenticationSession: String, relyingPartyId: String, userId: Data,
        userName: String, challengeData: Data
    ) {
        let body = PasskeySignupChallenge(
            authenticationSession: authenticationSession, relyingPartyId: relyingPartyId, userId: userId,
            userName: userName, challengeData: challengeData)
        self.init(authenticationMethodId: authenticationMethodId, body)
    }

    private init(authenticationMethodId: String, _ body: PasskeySignupChallenge) {
        self.authenticationMethodId = authenticationMethodId
        self.body = body
    }

    /// Reads the `Location` header and the body (whose shape is a signup challenge's).
    static let handle: @Sendable (HTTPResponse) throws(MyAccountError) -> Self = { response throws(MyAccountError) in
        let body = try ResponseHandling.json(PasskeySignupChallenge.self, MyAccountError.self)(response)
        guard let location = response.header("Location"), let id = location.split(separator: "/").last else {
            throw .decodingFailure(
                DecodingError.keyNotFound(
                    AnyCodingKey(stringValue: "Location"),
                    .init(
                        codingPath: [],
                        debugDescription: "Missing authentication method identifier in header 'Location'")),
                status: response.status)
        }
        return Self(authenticationMethodId: String(id), body)
    }

    public var description: String {
        "PasskeyEnrollmentChallenge(authenticationMethodId: \(authenticationMethodId), "
            + "relyingPartyId: \(relyingPartyId), userName: \(userName), session: <redacted>)"
    }

    public var customMirror: Mirror { Mirror(self, children: []) }
}
