public import WebAuthn

/// Why a virtual user's flow stopped, when no library below gave the reason.
///
/// The flows throw the typed errors of the libraries they call — `AuthenticationError` and
/// `MyAccountError` for the tenant's answers, `CredentialsManagerError` for the session,
/// `WebAuthnClientError` for the device, `StoreError` for its store, `TransportError` for no
/// answer — and this one for the conditions of their own. Two errors are equal when their codes
/// are; the reason never carries a token (STYLE §3, §5).
public struct VirtualUserError: CodedError, Hashable {
    /// What went wrong, as a stable identifier.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The flow needs a device and the user has none.
        public static let noDevice = Code(rawValue: "no_device")
        /// The tenant's ID token does not decode.
        public static let badIDToken = Code(rawValue: "bad_id_token")
        /// No domain is known for the My Account audience: none was configured and the ID token
        /// names no issuer.
        public static let noDomain = Code(rawValue: "no_domain")
        /// The device already holds a discoverable passkey of this user for the RP ID; a new one
        /// would replace it (CTAP 2.1 §6.1.2 step 17) while the tenant still lists it.
        public static let alreadyEnrolledHere = Code(rawValue: "already_enrolled_here")
        /// The passkey's assertion has no user handle, which a discoverable login needs.
        public static let noUserHandle = Code(rawValue: "no_user_handle")
        /// An API call's method is not one the client sends.
        public static let badMethod = Code(rawValue: "bad_method")
        /// An API call's URL would send the bearer token in the clear.
        public static let refusedURL = Code(rawValue: "refused_url")
        /// A step failed with an error none of the libraries' types describes (a backend's own).
        public static let unexpected = Code(rawValue: "unexpected")
        /// The tenant serves no test outbox, or it holds no code for the address.
        public static let noOutbox = Code(rawValue: "no_outbox")
    }

    /// What went wrong.
    public let code: Code
    /// Why, in words fit for a terminal.
    public let reason: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - reason: why; never a token.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
