import JSONBodies
import WebAuthn

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

/// A bridge command's JSON body: posted as it is (`POST /bridge/ROUTE`), or as the `body` member
/// of a relay request or a socket message.
struct BridgeBody: Sendable {
    /// The JSON text.
    let bytes: [UInt8]
    /// Whether the body is the `body` member of `bytes`, not `bytes` itself.
    let enveloped: Bool

    /// The body as `type`; a malformed one is `invalid argument` (WebDriver's, 400).
    func decode<Body: Decodable>(_ type: Body.Type) throws(ControlError) -> Body {
        do {
            if enveloped {
                return try JSONRequestDecoder.control.decode(Envelope<Body>.self, json: bytes).body
            }
            return try JSONRequestDecoder.control.decode(type, json: bytes)
        } catch let error as ControlError {
            throw error
        } catch {
            throw .invalidArgument("malformed body: \(error)")
        }
    }

    /// A ceremony's body; a malformed one is the `SyntaxError` a browser throws for options it
    /// cannot read (WebAuthn L3 §5.1.3, §5.1.4), not `invalid argument`.
    func ceremony<Body: Decodable>(_ type: Body.Type) throws(ControlError) -> Body {
        do {
            return try decode(type)
        } catch  where error.status == 400 {
            throw ControlError("SyntaxError", status: 400, error.message)
        }
    }

    /// `{"body": BODY, …}`.
    private struct Envelope<Body: Decodable>: Decodable {
        let body: Body
    }
}

/// Who sent a bridge command: the grant of its capability, the page's origin (the browser's
/// `Origin` header for a page; the relay's statement for a relay), and the top-level origin of a
/// cross-origin frame as a relay states it (for a page, its body's `topOrigin` says).
struct BridgeCaller: Sendable {
    let grant: BridgeGrant
    let origin: WebOrigin
    /// Whether a relay sent it: then ``statedTopOrigin`` is the top-level origin, and the body's is ignored.
    let relayed: Bool
    let statedTopOrigin: WebOrigin?

    /// The top-level origin for client data's `topOrigin` (WebAuthn L3 §5.8.1): `nil` for a
    /// top-level page or a frame of the page's own origin.
    func topOrigin(claimed: String?) throws(ControlError) -> WebOrigin? {
        guard relayed else {
            guard let claimed else { return nil }
            let parsed = try callerOrigin(claimed, "topOrigin")
            return parsed == origin ? nil : parsed
        }
        return statedTopOrigin == origin ? nil : statedTopOrigin
    }
}
