import PasskeyAuthenticator
import WebAuthn

/// The page script of a bridge: `bridge.js` (embedded in the binary) applied to its
/// configuration, `(function softpasskeyBridge(config) {…})({…});`.
struct BridgeScript {
    /// The configuration the script runs with.
    struct Configuration: Encodable {
        /// The base URL of the bridge routes.
        let endpoint: String
        /// The bridge socket's URL; none when the script uses `fetch` alone.
        let socket: String?
        /// The bearer capability for one authenticator.
        let capability: String
        /// `platform` or `cross-platform`.
        let attachment: String
        /// What `getTransports()` answers.
        let transports: [String]
        /// What `getClientCapabilities()` answers.
        let capabilities: [String: Bool]
        /// Which of a browser's rules for frames the script enforces.
        let policy: BridgePolicy
    }

    let configuration: Configuration

    /// The script for `client`'s authenticator, reached at `endpoint` (and `socket`) with
    /// `capability`: the client's capabilities (``WebAuthnClient/capabilities``, `relatedOrigins`
    /// with its fetcher) plus the three signals the bridge carries out, enforcing `policy`.
    init(
        endpoint: String, socket: String?, capability: String, client: WebAuthnClient,
        policy: BridgePolicy = .enforced
    ) {
        let info = client.authenticator.info
        var capabilities = client.capabilities
        for signal in ["signalUnknownCredential", "signalAllAcceptedCredentials", "signalCurrentUserDetails"] {
            capabilities[signal] = true
        }
        configuration = Configuration(
            endpoint: endpoint, socket: socket, capability: capability, attachment: info.attachment.rawValue,
            transports: Set(info.transports.map(\.rawValue)).sorted(), capabilities: capabilities, policy: policy)
    }

    /// The script's text.
    var text: String {
        let function = String(decoding: PackageResources.bridge_js, as: UTF8.self)
        let json = String(decoding: WebAuthnJSON.encode(configuration), as: UTF8.self)
        return "(\(function.trimmingTrailingWhitespace))(\(json));\n"
    }
}

extension String {
    /// The text without its trailing spaces and newlines.
    fileprivate var trimmingTrailingWhitespace: Substring {
        self[..<(lastIndex { !$0.isWhitespace }.map(index(after:)) ?? startIndex)]
    }
}
