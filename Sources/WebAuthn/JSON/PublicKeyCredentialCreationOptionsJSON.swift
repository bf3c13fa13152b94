// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension PublicKeyCredentialCreationOptionsJSON: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("rp", \.rp), .member("user", \.user), .member("challenge", \.challenge),
            .member("pubKeyCredParams", \.pubKeyCredParams), .member("timeout", \.timeout),
            .member("excludeCredentials", \.excludeCredentials),
            .member("authenticatorSelection", \.authenticatorSelection), .member("hints", \.hints),
            .member("attestation", \.attestation), .member("attestationFormats", \.attestationFormats),
            .member("extensions", \.extensions),
        ])

    package static var unread: Self { Self(rp: .unread, user: .unread, challenge: Base64URL([]), pubKeyCredParams: []) }
}

/// The options of a registration ceremony, as a relying party sends them in JSON
/// (WebAuthn L3 §5.1.8, the JSON form of §5.4).
///
/// ```
/// dictionary PublicKeyCredentialCreationOptionsJSON {
///     required PublicKeyCredentialRpEntity rp;
///     required PublicKeyCredentialUserEntityJSON user;
///     required Base64URLString challenge;
///     required sequence<PublicKeyCredentialParameters> pubKeyCredParams;
///     unsigned long timeout;
///     sequence<PublicKeyCredentialDescriptorJSON> excludeCredentials = [];
///     AuthenticatorSelectionCriteria authenticatorSelection;
///     sequence<DOMString> hints = [];
///     DOMString attestation = "none";
///     sequence<DOMString> attestationFormats = [];
///     AuthenticationExtensionsClientInputsJSON extensions;
/// };
/// ```
///
/// Absent members stay `nil` rather than taking the IDL defaults, so that decoding and encoding
/// again gives back the members that were sent; a client applies the defaults when it acts.
public struct PublicKeyCredentialCreationOptionsJSON: Sendable, Hashable, Codable {
    /// The relying party.
    public var rp: PublicKeyCredentialRpEntity
    /// The user account the credential is for.
    public var user: PublicKeyCredentialUserEntityJSON
    /// The challenge the client data must carry.
    public var challenge: Base64URL
    /// The credential types and algorithms the relying party accepts, most preferred first.
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    /// How long the relying party will wait, in milliseconds; a hint.
    public var timeout: UInt32?
    /// Credentials the user already has: an authenticator holding one of them must refuse.
    public var excludeCredentials: [PublicKeyCredentialDescriptorJSON]?
    /// Requirements on the authenticator.
    public var authenticatorSelection: AuthenticatorSelectionCriteria?
    /// Which kinds of authenticator to suggest, most preferred first.
    public var hints: [PublicKeyCredentialHint]?
    /// What attestation the relying party wants.
    public var attestation: AttestationConveyancePreference?
    /// Attestation statement formats the relying party prefers (WebAuthn L3 §8), most preferred first.
    public var attestationFormats: [String]?
    /// Client extension inputs.
    public var extensions: AuthenticationExtensionsClientInputsJSON?

    /// Creates registration options; optional members default to absent.
    ///
    /// - Parameters:
    ///   - rp: the relying party.
    ///   - user: the user account.
    ///   - challenge: the challenge.
    ///   - pubKeyCredParams: accepted types and algorithms, most preferred first.
    ///   - timeout: a timeout hint in milliseconds.
    ///   - excludeCredentials: credentials that must not be created again.
    ///   - authenticatorSelection: requirements on the authenticator.
    ///   - hints: kinds of authenticator to suggest.
    ///   - attestation: the attestation preference.
    ///   - attestationFormats: preferred attestation statement formats.
    ///   - extensions: client extension inputs.
    public init(
        rp: PublicKeyCredentialRpEntity,
        user: PublicKeyCredentialUserEntityJSON,
        challenge: Base64URL,
        pubKeyCredParams: [PublicKeyCredentialParameters],
        timeout: UInt32? = nil,
        excludeCredentials: [PublicKeyCredentialDescriptorJSON]? = nil,
        authenticatorSelection: AuthenticatorSelectionCriteria? = nil,
        hints: [PublicKeyCredentialHint]? = nil,
        attestation: AttestationConveyancePreference? = nil,
        attestationFormats: [String]? = nil,
        extensions: AuthenticationExtensionsClientInputsJSON? = nil
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.hints = hints
        self.attestation = attestation
        self.attestationFormats = attestationFormats
        self.extensions = extensions
    }
}
