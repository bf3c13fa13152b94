/// A command of the page bridge: the route `bridge.js` posts to (`POST /bridge/ROUTE`), which a
/// relay names in `POST /bridge/relay` and either names in a bridge socket message.
enum BridgeRoute: String, Sendable, CaseIterable, Decodable {
    /// A page's `navigator.credentials.create()` (WebAuthn L3 §5.1.3).
    case create
    /// A page's `navigator.credentials.get()` (WebAuthn L3 §5.1.4), conditional or not.
    case get
    /// The page's `AbortSignal` fired, or it went away (WebAuthn L3 §5.6).
    case abort
    /// `PublicKeyCredential.signal…()` (WebAuthn L3 §5.1.11).
    case signal
}
