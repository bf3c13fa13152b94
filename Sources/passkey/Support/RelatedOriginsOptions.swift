import ArgumentParser
import PasskeyAuthenticator
import PasskeyKit

/// `--related-origins`: whether a command's WebAuthn client reads an RP ID's
/// `/.well-known/webauthn` (WebAuthn L3 §5.11) when the origin may not claim the RP ID by itself;
/// `create`, `get`, `serve` and `mcp` take it (`browser` always reads it, as a browser does).
struct RelatedOriginsOptions: ParsableArguments {
    @Flag(
        name: .customLong("related-origins"),
        help: ArgumentHelp(
            "When the origin may not claim the RP ID, fetch https://RPID/.well-known/webauthn and accept "
                + "an origin it lists (WebAuthn L3 §5.11)."))
    var enabled = false

    /// The library's fetcher over libcurl with its limits, trusting `--cacert`, when the flag is
    /// given; `nil` otherwise.
    func fetcher(_ trust: CABundleOptions) -> RelatedOriginsFetcher? {
        enabled ? .http(trust) : nil
    }
}

extension RelatedOriginsFetcher {
    /// The library's fetcher (``RelatedOriginsFetcher/http(_:)``) over libcurl with its limits
    /// (``RelatedOriginsFetcher/httpConfiguration``), trusting `--cacert`.
    static func http(_ trust: CABundleOptions) -> RelatedOriginsFetcher {
        .http(trust.transport(httpConfiguration))
    }
}
