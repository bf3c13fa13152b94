import WebAuthn

/// What a page bridge's capability lets its holder do: run ceremonies and signals on one
/// virtual authenticator of one session, from the origins it was handed to (any, when `nil`).
///
/// A page's capability (in `bridge.js`) runs them for the origin the browser sets on its request;
/// a relay's (``ControlService/bridgeRelay(session:authenticator:origins:)``, held by an extension's
/// service worker or the driving process, never by a page) states the origin it took from the browser.
///
/// The capability itself is 32 random bytes in base64url; the service keeps only its SHA-256,
/// so a lookup takes the same time whatever the guess, and a memory dump holds no capability.
struct BridgeGrant: Sendable, Hashable {
    let session: String
    let authenticatorID: String
    /// The page origins (serialized, RFC 6454 §6.2) allowed to use it; any when `nil`.
    let origins: Set<String>?
    /// Whether the holder is a relay, which states each request's origin itself.
    var relay = false

    /// A new capability and the key its grant is kept under.
    static func newCapability() -> (capability: String, key: [UInt8]) {
        let capability = Base64URL.encode(SecureRandom.bytes(32))
        return (capability, key(capability))
    }

    /// The key a capability's grant is kept under.
    static func key(_ capability: String) -> [UInt8] {
        SHA256Digest.hash(Array(capability.utf8))
    }
}
