/// The control server's relay for a browser's pages: a *relay capability* (the control service's
/// `bridgeRelay`, trusted to state each request's origin) and where to use it. With one,
/// ``BrowserLaunch`` installs a channel no page policy can block beside the page bridge:
///
/// ```
/// Chromium  page (MAIN world: relay-main.js, bridge.js) ─MessagePort─ isolated content script
///           ─chrome.runtime port─ service worker ─{id, route, body, origin, topOrigin?}─ ws://…/bridge/socket
///           (origin: the port's sender.origin; topOrigin: its tab's URL, for a frame)
/// Firefox   preload script ─script.message (BiDi channel)─ this process ─POST /bridge/relay─ the server;
///           the answer through script.callFunction in the realm (origin: the realm's, script.getRealms)
/// ```
///
/// The page's own requests (`fetch` to the bridge routes) are then not needed, so a page whose
/// Content-Security-Policy forbids them (`connect-src 'self'`) still gets its ceremonies. The
/// description and the mirror leave the capability out (STYLE §5).
public struct BrowserRelay: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The relay capability (`Authorization: Bearer …` of `POST /bridge/relay`, the socket's
    /// `{capability}`).
    public var capability: String
    /// The base URL of the bridge routes (`http://127.0.0.1:PORT/bridge`).
    public var endpoint: String
    /// The bridge's WebSocket (`ws://127.0.0.1:PORT/bridge/socket`).
    public var socket: String

    /// Describes a relay.
    ///
    /// - Parameters:
    ///   - capability: the relay capability.
    ///   - endpoint: the base URL of the bridge routes.
    ///   - socket: the bridge's WebSocket URL.
    public init(capability: String, endpoint: String, socket: String) {
        self.capability = capability
        self.endpoint = endpoint
        self.socket = socket
    }

    /// `relay at <endpoint>`, without the capability.
    public var description: String { "relay at \(endpoint)" }

    /// Empty: the capability is a secret (STYLE §5).
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The relay's script for a page's realm: `relay-page.js` (what every engine's page side shares)
    /// and the engine's own `part`, in one function evaluated at once, so that nothing of either is
    /// left on the page's global object but the relay the bridge takes.
    ///
    /// - Parameter part: the engine's statements (`relay-main.js`, `relay-bidi.js`).
    /// - Returns: the script's text.
    static func pageScript(_ part: [UInt8]) -> String {
        "(() => {\n" + String(decoding: PackageResources.relay_page_js, as: UTF8.self) + "\n"
            + String(decoding: part, as: UTF8.self) + "\n})();\n"
    }
}
