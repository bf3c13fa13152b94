import WebAuthn

/// A relay request or a socket message: `{id?, route, origin?, topOrigin?, body}`. Read once, with
/// the JSON scanner when the text is plain; the `body` stays text (``JSONText``) for the command to
/// read as its own type.
struct BridgeRelayHead: Sendable, Codable, JSONObject {
    /// The socket message's number, echoed in its answer.
    var id: Int?
    var route: BridgeRoute
    /// The page's origin: a relay's statement; absent from a page's socket messages.
    var origin: String?
    var topOrigin: String?
    /// The command's body, as its text.
    var body: JSONText?

    static var jsonMembers: JSONMembers<Self> {
        JSONMembers(
            [
                .member("id", \.id), .member("route", \.route), .member("origin", \.origin),
                .member("topOrigin", \.topOrigin), .member("body", \.body),
            ])
    }

    static var unread: Self { Self(route: .create) }

    /// The command's body; an absent one is empty text, which the command refuses as malformed.
    var command: BridgeBody {
        BridgeBody(bytes: body?.bytes ?? [])
    }
}
