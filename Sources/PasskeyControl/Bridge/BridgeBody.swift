import JSONBodies
import WebAuthn

/// A bridge command's JSON body: posted as it is (`POST /bridge/ROUTE`), or the `body` member of a
/// relay request or a socket message, kept as its text when the message's head was read
/// (``BridgeRelayHead``), so that a message is read once.
struct BridgeBody: Sendable {
    /// The JSON text.
    let bytes: [UInt8]

    /// The body as `type`; a malformed one is `invalid argument` (WebDriver's, 400).
    func decode<Body: Decodable>(_ type: Body.Type) throws(ControlError) -> Body {
        do {
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
}
