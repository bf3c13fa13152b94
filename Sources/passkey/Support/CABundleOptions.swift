import ArgumentParser
import Auth0Passkeys
import Foundation

/// `--cacert`: the CA bundle every command that makes HTTP requests as a client trusts (the Auth0
/// commands, `create` / `get` / `serve` with `--related-origins`, `serve` and `mcp` for their virtual
/// users, `tenant serve` for its upstream connections' issuers, `browser` for related origins; the
/// browser's own requests use its own trust store).
///
/// The order is curl's: `--cacert`, else `$CURL_CA_BUNDLE`, else `$SSL_CERT_FILE`, else the system's
/// store (``CurlTransport/caBundlePath(explicit:environment:)``). Commands that make no HTTP request
/// of their own do not take it: `demo` (plain HTTP to the tenant it starts on loopback).
struct CABundleOptions: ParsableArguments {
    @Option(
        name: .customLong("cacert"),
        help: ArgumentHelp(
            "A PEM file of CA certificates to trust instead of the system's ($CURL_CA_BUNDLE, then $SSL_CERT_FILE).",
            valueName: "file"))
    var caBundlePath: String?

    /// A libcurl transport with `configuration`'s limits, trusting `--cacert` when given, else what
    /// `configuration` names, else the environment's CA bundle.
    ///
    /// - Parameters:
    ///   - configuration: the limits (and a default CA bundle) of the transport.
    ///   - environment: where `CURL_CA_BUNDLE` and `SSL_CERT_FILE` are read.
    /// - Returns: the transport.
    func transport(
        _ configuration: CurlTransport.Configuration = .init(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> CurlTransport {
        var configuration = configuration
        configuration.caBundlePath = caBundlePath ?? configuration.caBundlePath
        return CurlTransport(configuration: configuration, environment: environment)
    }
}
