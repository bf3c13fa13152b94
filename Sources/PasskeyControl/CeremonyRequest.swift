import PasskeyAuthenticator
import WebAuthn

/// A ceremony's body: `{origin, options, topOrigin?, user?, credentialId?}`.
///
/// It reads itself with the options' JSON scanner when the text is plain (the options are most
/// of the body, and `JSONDecoder` would be most of a ceremony's cost over HTTP); anything else
/// goes to `JSONDecoder`, which names the malformed member.
struct CeremonyRequest<Options: JSONReadable & Sendable>: Decodable, Sendable, JSONReadable {
    let origin: String
    let options: Options
    let topOrigin: String?
    /// For get: the passkey of this `user.name`, when several match.
    let user: String?
    /// For get: this passkey, when several match.
    let credentialId: Base64URL?

    init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var origin: String?
        var options: Options?
        var topOrigin: String?
        var user: String?
        var credentialId: Base64URL?
        try scanner.object { scanner, name throws(JSONScanner.Unreadable) in
            switch name {
            case "origin": origin = try scanner.string()
            case "options": options = try scanner.read(Options.self)
            case "topOrigin": topOrigin = try scanner.null() ? nil : try scanner.string()
            case "user": user = try scanner.null() ? nil : try scanner.string()
            case "credentialId": credentialId = try scanner.null() ? nil : try scanner.base64URL()
            default: try scanner.skipValue()
            }
        }
        self.origin = try JSONScanner.required(origin)
        self.options = try JSONScanner.required(options)
        self.topOrigin = topOrigin
        self.user = user
        self.credentialId = credentialId
    }

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
