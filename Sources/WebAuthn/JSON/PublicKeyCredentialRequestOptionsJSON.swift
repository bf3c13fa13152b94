// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension PublicKeyCredentialRequestOptionsJSON: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("challenge", \.challenge), .member("timeout", \.timeout), .member("rpId", \.rpId),
            .member("allowCredentials", \.allowCredentials), .member("userVerification", \.userVerification),
            .member("hints", \.hints), .member("extensions", \.extensions),
        ])

    package static var unread: Self { Self(challenge: Base64URL([])) }
}

/// The options of an authentication ceremony, as a relying party sends them in JSON
/// (WebAuthn L3 §5.1.9, the JSON form of §5.5).
///
/// ```
/// dictionary PublicKeyCredentialRequestOptionsJSON {
///     required Base64URLString challenge;
///     unsigned long timeout;
///     DOMString rpId;
///     sequence<PublicKeyCredentialDescriptorJSON> allowCredentials = [];
///     DOMString userVerification = "preferred";
///     sequence<DOMString> hints = [];
///     AuthenticationExtensionsClientInputsJSON extensions;
/// };
/// ```
///
/// Absent members stay `nil` rather than taking the IDL defaults, so that decoding and encoding
/// again gives back the members that were sent; a client applies the defaults when it acts.
public struct PublicKeyCredentialRequestOptionsJSON: Sendable, Hashable, Codable {
    /// The challenge the client data must carry.
    public var challenge: Base64URL
    /// How long the relying party will wait, in milliseconds; a hint.
    public var timeout: UInt32?
    /// The RP ID; when absent the client uses the caller origin's effective domain.
    public var rpId: String?
    /// The credentials that may answer, most preferred first; empty or absent lets the
    /// authenticator choose among its discoverable credentials.
    public var allowCredentials: [PublicKeyCredentialDescriptorJSON]?
    /// Whether the user must be verified.
    public var userVerification: UserVerificationRequirement?
    /// Which kinds of authenticator to suggest, most preferred first.
    public var hints: [PublicKeyCredentialHint]?
    /// Client extension inputs.
    public var extensions: AuthenticationExtensionsClientInputsJSON?

    /// Creates authentication options; optional members default to absent.
    ///
    /// - Parameters:
    ///   - challenge: the challenge.
    ///   - timeout: a timeout hint in milliseconds.
    ///   - rpId: the RP ID.
    ///   - allowCredentials: the credentials that may answer.
    ///   - userVerification: the user-verification requirement.
    ///   - hints: kinds of authenticator to suggest.
    ///   - extensions: client extension inputs.
    public init(
        challenge: Base64URL,
        timeout: UInt32? = nil,
        rpId: String? = nil,
        allowCredentials: [PublicKeyCredentialDescriptorJSON]? = nil,
        userVerification: UserVerificationRequirement? = nil,
        hints: [PublicKeyCredentialHint]? = nil,
        extensions: AuthenticationExtensionsClientInputsJSON? = nil
    ) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
        self.hints = hints
        self.extensions = extensions
    }
}
