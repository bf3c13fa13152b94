import FoundationEssentials

extension CurlTransport {
    /// The CA bundle a transport trusts, in curl's own order: the explicit path (``Configuration/caBundlePath``,
    /// the CLI's `--cacert`), else `$CURL_CA_BUNDLE`, else `$SSL_CERT_FILE`, else `nil` for the system store.
    ///
    /// libcurl reads neither variable itself (only the `curl` tool does), so the transport does, once, when it is
    /// made. An empty variable counts as unset.
    ///
    /// - Parameters:
    ///   - explicit: the path the caller chose, which wins over the environment.
    ///   - environment: the process's environment variables.
    /// - Returns: the path of the PEM bundle to trust, or `nil` for the system store.
    public static func caBundlePath(explicit: String?, environment: [String: String]) -> String? {
        [explicit, environment["CURL_CA_BUNDLE"], environment["SSL_CERT_FILE"]].lazy.compactMap { $0 }
            .first { !$0.isEmpty }
    }

    /// Checks, before an `https` transfer, that the CA bundle is a readable file, so that a mistyped path is
    /// an error that names it rather than a failed TLS handshake.
    ///
    /// It runs on the transfer's Dispatch thread (it touches the file system).
    ///
    /// - Throws: ``TransportError/Code/caBundleUnreadable`` naming `path`.
    static func checkCABundle(_ path: String) throws(TransportError) {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TransportError(.caBundleUnreadable, "the CA bundle \(path) does not exist")
        }
        guard !isDirectory, FileManager.default.isReadableFile(atPath: path) else {
            throw TransportError(.caBundleUnreadable, "the CA bundle \(path) is not a readable file")
        }
    }
}
