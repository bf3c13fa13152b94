import WebAuthn

/// A command of the page bridge: the route `bridge.js` posts to (`POST /bridge/ROUTE`), which a
/// relay names in `POST /bridge/relay` and either names in a bridge socket message.
enum BridgeRoute: String, Sendable, CaseIterable, Codable {
    /// A page's `navigator.credentials.create()` (WebAuthn L3 §5.1.3).
    case create
    /// A page's `navigator.credentials.get()` (WebAuthn L3 §5.1.4), conditional or not.
    case get
    /// The page's `AbortSignal` fired, or it went away (WebAuthn L3 §5.6).
    case abort
    /// `PublicKeyCredential.signal…()` (WebAuthn L3 §5.1.11).
    case signal
}

extension BridgeRoute: JSONReadable, JSONWritable {
    /// A route's name; another string is `JSONDecoder`'s to refuse, naming it.
    init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        guard let route = BridgeRoute(rawValue: try scanner.string()) else { throw JSONScanner.Unreadable() }
        self = route
    }

    func write(to writer: inout JSONWriter) {
        writer.string(rawValue)
    }
}
