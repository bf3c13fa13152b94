public import WebAuthn

/// An HTTP exchange that produced no response: the request could not be sent, or the response
/// could not be read in full.
///
/// Every ``HTTPTransport`` throws it, ``CurlTransport`` and conformers outside this package
/// alike; a conformer picks the code that says why and keeps its HTTP library's words in
/// ``reason``.
///
/// It is the `cause` of an ``AuthenticationError`` or ``MyAccountError`` whose code is
/// `a0.sdk.internal_error.plain` and whose status code is 0 (spec §7.3). The codes that mean "the
/// network failed" (``Code/timedOut``, ``Code/cannotConnect``, ``Code/cannotResolveHost``,
/// ``Code/connectionLost``) are the ones Auth0's SDK counts as network errors; only those are
/// retried.
///
/// It has no ``cause``: the transport's own words are its ``reason``. Two errors are equal when
/// their codes are equal.
public struct TransportError: Auth0LibraryError, Hashable {
    /// What went wrong.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// No complete response within the configured time (the SDK's `URLError.timedOut`).
        public static let timedOut = Code(rawValue: "timed-out")
        /// The host refused or did not answer the connection (`cannotConnectToHost`).
        public static let cannotConnect = Code(rawValue: "cannot-connect")
        /// The host name did not resolve (`dnsLookupFailed`, `cannotFindHost`).
        public static let cannotResolveHost = Code(rawValue: "cannot-resolve-host")
        /// The connection broke before the whole response arrived, or the server closed it
        /// without a response (`networkConnectionLost`).
        public static let connectionLost = Code(rawValue: "connection-lost")
        /// TLS failed: handshake, certificate verification, or the CA bundle.
        public static let tls = Code(rawValue: "tls")
        /// The CA bundle to trust (``CurlTransport/Configuration/caBundlePath``, `$CURL_CA_BUNDLE`,
        /// `$SSL_CERT_FILE`) is missing or not a readable file; the reason names its path.
        public static let caBundleUnreadable = Code(rawValue: "ca-bundle-unreadable")
        /// The URL's scheme is not `http` or `https`.
        public static let unsupportedProtocol = Code(rawValue: "unsupported-protocol")
        /// The response body was larger than the transport accepts.
        public static let responseTooLarge = Code(rawValue: "response-too-large")
        /// The task that awaited the exchange was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// Any other failure of the HTTP library.
        public static let other = Code(rawValue: "other")
    }

    /// Whether the network failed, as Auth0's SDK counts it (spec §7.3 `isNetworkError`).
    public var isNetworkError: Bool {
        [.timedOut, .cannotConnect, .cannotResolveHost, .connectionLost].contains(code)
    }

    public let details: ErrorDetails<Code>

    public init(details: ErrorDetails<Code>) { self.details = details }
}
