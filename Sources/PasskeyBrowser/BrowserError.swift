public import WebAuthn

/// A failure to open a browser or to install the script in it (STYLE §3: one error type per
/// module).
public struct BrowserError: CodedError, Hashable {
    /// What went wrong.
    public struct Code: ErrorCode {
        public let rawValue: String

        /// Wraps a kebab-case identifier.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The engine's executable is not on `PATH`; the reason names the Debian package.
        public static let engineMissing = Code(rawValue: "engine-missing")
        /// The browser could not be started, or ended with a failure status.
        public static let launchFailed = Code(rawValue: "launch-failed")
        /// The browser's remote agent refused a WebDriver BiDi command or closed the connection.
        public static let driverFailed = Code(rawValue: "driver-failed")
        /// The temporary profile or extension could not be written.
        public static let fileSystem = Code(rawValue: "file-system")
        /// The store's remembered site decisions (``SiteDecisions``) do not read back: a damaged
        /// file, which is never taken for an empty list.
        public static let sitesUnreadable = Code(rawValue: "sites-unreadable")
    }

    /// What went wrong.
    public let code: Code
    /// What happened, in words; never the script (it carries a capability).
    public let reason: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - reason: what happened.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
