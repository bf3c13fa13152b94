public import WebAuthn

/// A challenge answer: the `auth_session` to echo and the WebAuthn options to run
/// (auth0-passkey-api.md §1.2, §2.2, §5.2).
///
/// ```
/// { "auth_session": string, "authn_params_public_key": PublicKeyCredential…OptionsJSON }
/// ```
///
/// `Options` is ``PublicKeyCredentialCreationOptionsJSON`` for signup and enrollment (with
/// `rp.id`, `user.id`, `user.name`) and ``PublicKeyCredentialRequestOptionsJSON`` for login
/// (with camel-case `rpId`).
public struct ChallengeResponse<Options: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    /// The session to send back with the response; secret until used.
    public var authSession: Secret
    /// The options for `navigator.credentials.create()` or `.get()`.
    public var options: Options

    /// Creates a challenge answer.
    public init(authSession: Secret, options: Options) {
        self.authSession = authSession
        self.options = options
    }

    enum CodingKeys: String, CodingKey {
        case authSession = "auth_session"
        case options = "authn_params_public_key"
    }
}

/// The signup and enrollment challenge answer.
public typealias CreationChallengeResponse = ChallengeResponse<PublicKeyCredentialCreationOptionsJSON>
/// The login challenge answer.
public typealias RequestChallengeResponse = ChallengeResponse<PublicKeyCredentialRequestOptionsJSON>
