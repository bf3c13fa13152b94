import PasskeyAuthenticator
import WebAuthn

/// A ceremony's body: `{origin, options, topOrigin?, user?, credentialId?}`.
///
/// Its members are declared once (``JSONObject``): it reads itself with the options' JSON
/// scanner when the text is plain (the options are most of the body, and `JSONDecoder` would be
/// most of a ceremony's cost over HTTP); anything else goes to `JSONDecoder`, which names the
/// malformed member. A `get`'s options are kept as their text (``JSONText``), which the client's
/// JSON path reads (`WebAuthnClient.get(json:origin:topOrigin:)`): read once, not read, written
/// and read again (issue 46).
struct CeremonyRequest<Options: CeremonyOptions>: Sendable, Codable, JSONObject {
    var origin: String
    var options: Options
    var topOrigin: String?
    /// For get: the passkey of this `user.name`, when several match.
    var user: String?
    /// For get: this passkey, when several match.
    var credentialId: Base64URL?

    static var jsonMembers: JSONMembers<Self> {
        JSONMembers(
            [
                .member("origin", \.origin), .member("options", \.options), .member("topOrigin", \.topOrigin),
                .member("user", \.user), .member("credentialId", \.credentialId),
            ])
    }

    static var unread: Self { Self(origin: "", options: .unread) }

    func origins() throws(ControlError) -> (WebOrigin, WebOrigin?) {
        (
            try callerOrigin(origin, "origin"),
            try topOrigin.map { (text) throws(ControlError) in
                try callerOrigin(text, "topOrigin")
            }
        )
    }

    func choice() throws(ControlError) -> AccountChoice {
        try accountChoice(user: user, credentialID: credentialId, refusal: "SyntaxError")
    }
}

/// What a ceremony body's `options` member holds: a WebAuthn options dictionary, or the options'
/// text as it came, for the client's JSON path.
protocol CeremonyOptions: JSONReadable, JSONWritable, Sendable {
    /// The value before reading (``JSONObject/unread``).
    static var unread: Self { get }
}

extension PublicKeyCredentialCreationOptionsJSON: CeremonyOptions {}
extension PublicKeyCredentialRequestOptionsJSON: CeremonyOptions {}
extension JSONText: CeremonyOptions {}

/// A caller's origin from a body's `member`; one that does not parse is the `SecurityError` a
/// browser's client would throw for it.
func callerOrigin(_ text: String, _ member: String) throws(ControlError) -> WebOrigin {
    do {
        return try WebOrigin(text)
    } catch {
        throw ControlError("SecurityError", status: 400, "\(member): \(error)")
    }
}

/// The passkey a body's `user` or `credentialId` picks, the most recent without either; both is
/// refused with `refusal`.
func accountChoice(user: String?, credentialID: Base64URL?, refusal: String) throws(ControlError) -> AccountChoice {
    switch (user, credentialID) {
    case (nil, nil): return .mostRecent
    case (let user?, nil): return .user(user)
    case (nil, let id?): return .credential(id.bytes)
    default: throw ControlError(refusal, status: 400, "user and credentialId each pick a passkey; give one")
    }
}
