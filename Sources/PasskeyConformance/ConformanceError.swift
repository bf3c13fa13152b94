public import WebAuthn

/// The one error type of the conformance suite: why a test could not reach its verdict, or why the
/// runner could not start.
///
/// A test that ends in one of these fails (``Code/skipped`` aside) with the reason as its report
/// line; the runner itself never stops on a server's answer.
public struct ConformanceError: CodedError, Hashable {
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The server's verdict differs from the one the rule demands.
        public static let wrongVerdict = Code(rawValue: "wrong-verdict")
        /// An options answer breaks a rule of the options it must give.
        public static let badOptions = Code(rawValue: "bad-options")
        /// The answer is not what the transport binding (or the endpoint map) describes: not JSON,
        /// no options where they belong.
        public static let badAnswer = Code(rawValue: "bad-answer")
        /// The server answered 5xx: bad input is a refusal, never a server error.
        public static let serverError = Code(rawValue: "server-error")
        /// The server answered with a redirect, which the binding has no place for.
        public static let redirected = Code(rawValue: "redirected")
        /// No answer: the connection failed or the server did not answer in time.
        public static let unreachable = Code(rawValue: "unreachable")
        /// An endpoint map that does not parse or names a value the ceremony does not have.
        public static let badMap = Code(rawValue: "bad-map")
        /// The test does not apply to this server (an algorithm it does not offer, a feature it
        /// was not told about); reported as skipped, never as failed.
        public static let skipped = Code(rawValue: "skipped")
        /// The runner could not forge the ceremony (a key or certificate it could not make).
        public static let forgery = Code(rawValue: "forgery")
        /// No metadata BLOB: no answer, or not 200.
        public static let metadataUnavailable = Code(rawValue: "metadata-unavailable")
        /// A metadata BLOB that does not parse, or does not verify to its root.
        public static let badMetadata = Code(rawValue: "bad-metadata")
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
