public import WebAuthn

/// Why a ``WebAuthnClient`` refused a ceremony: the `DOMException` a browser would throw
/// (WebAuthn L3 §5.1.3, §5.1.4), with a reason fit for a terminal.
///
/// The CLI prints it as one line starting with the name (DESIGN.md: "Generic WebAuthn in and
/// out"). An authenticator failure behind it stays as ``authenticatorError``.
///
/// Two errors are equal when their names are equal; the message is for people.
public struct WebAuthnClientError: CodedError, Hashable {
    /// The `DOMException` name.
    public struct Name: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// No credential matched, the user cancelled or declined, verification failed, or the
        /// time ran out; WebAuthn does not tell a relying party which.
        public static let notAllowed = Name(rawValue: "NotAllowedError")
        /// A credential of the exclude list is on the authenticator.
        public static let invalidState = Name(rawValue: "InvalidStateError")
        /// The origin may not use the RP ID (or is not a secure context, or the RP ID is a public
        /// suffix).
        public static let security = Name(rawValue: "SecurityError")
        /// No offered algorithm, or an option, is supported.
        public static let notSupported = Name(rawValue: "NotSupportedError")
        /// The options are malformed.
        public static let syntax = Name(rawValue: "SyntaxError")
    }

    /// The exception's name.
    public let name: Name
    /// Why, in words fit for a terminal.
    public let message: String
    /// The authenticator's failure behind it, if any.
    public let authenticatorError: AuthenticatorError?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - name: the `DOMException` name.
    ///   - message: why.
    ///   - authenticatorError: the authenticator failure behind it, if any.
    public init(_ name: Name, _ message: String, authenticatorError: AuthenticatorError? = nil) {
        self.name = name
        self.message = message
        self.authenticatorError = authenticatorError
    }

    /// Maps an authenticator's status as WebAuthn L3 §6.3.2 step 3 and §5.1.3 step 22 do: an
    /// excluded credential is `InvalidStateError`, no supported algorithm `NotSupportedError`,
    /// anything else `NotAllowedError`.
    ///
    /// - Parameter error: the authenticator's failure.
    public init(_ error: AuthenticatorError) {
        let name: Name =
            switch error.code {
            case .credentialExcluded: .invalidState
            case .unsupportedAlgorithm: .notSupported
            default: .notAllowed
            }
        self.init(name, error.reason, authenticatorError: error)
    }

    /// The ``name``: the `DOMException` name is this error's code.
    public var code: Name { name }

    /// The ``message``, as `CodedError` names it.
    public var reason: String { message }

    /// The authenticator's error behind this one, if any (``authenticatorError``).
    public var cause: (any Error)? { authenticatorError }
}
