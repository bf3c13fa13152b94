/// What a relay request or a socket message says besides its body: `{id?, route, origin?, topOrigin?}`.
struct BridgeRelayHead: Decodable, Sendable {
    /// The socket message's number, echoed in its answer.
    let id: Int?
    let route: BridgeRoute
    /// The page's origin: a relay's statement; absent from a page's socket messages.
    let origin: String?
    let topOrigin: String?
}
