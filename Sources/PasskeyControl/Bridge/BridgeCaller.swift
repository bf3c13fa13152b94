import WebAuthn

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
