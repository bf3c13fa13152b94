public import WebAuthn

/// The one error type of the ``Authenticator`` protocol: a CTAP2 status code and a reason.
///
/// Backends (the software authenticator, an HSM, a TPM, a token) answer in CTAP 2.1 §8.2 status
/// codes so that one client maps them to WebAuthn's exceptions the same way for all of them
/// (``WebAuthnClientError/init(_:)``). A failure that comes from the credential store keeps it as
/// ``storeError`` (its ``cause``).
///
/// Two errors are equal when their codes are equal; the reason is for people.
public struct AuthenticatorError: CodedError, Hashable {
    /// A CTAP2 status code (CTAP 2.1 §8.2), named as the specification names it.
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The status byte.
        public let rawValue: UInt8

        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// `CTAP1_ERR_INVALID_PARAMETER`: a parameter has a wrong value.
        public static let invalidParameter = Code(rawValue: 0x02)
        /// `CTAP1_ERR_INVALID_LENGTH`: a parameter has a wrong length.
        public static let invalidLength = Code(rawValue: 0x03)
        /// `CTAP2_ERR_INVALID_CBOR`: a request that is not CTAP2 canonical CBOR.
        public static let invalidCBOR = Code(rawValue: 0x12)
        /// `CTAP2_ERR_MISSING_PARAMETER`: a required parameter is missing.
        public static let missingParameter = Code(rawValue: 0x14)
        /// `CTAP2_ERR_CREDENTIAL_EXCLUDED`: a credential of the exclude list is here.
        public static let credentialExcluded = Code(rawValue: 0x19)
        /// `CTAP2_ERR_UNSUPPORTED_ALGORITHM`: no offered algorithm is supported.
        public static let unsupportedAlgorithm = Code(rawValue: 0x26)
        /// `CTAP2_ERR_OPERATION_DENIED`: the user declined.
        public static let operationDenied = Code(rawValue: 0x27)
        /// `CTAP2_ERR_KEY_STORE_FULL`: the credential could not be stored.
        public static let keyStoreFull = Code(rawValue: 0x28)
        /// `CTAP2_ERR_UNSUPPORTED_OPTION`: an option this authenticator does not have.
        public static let unsupportedOption = Code(rawValue: 0x2B)
        /// `CTAP2_ERR_INVALID_OPTION`: an option value that is not allowed here.
        public static let invalidOption = Code(rawValue: 0x2C)
        /// `CTAP2_ERR_KEEPALIVE_CANCEL`: the operation was cancelled.
        public static let keepaliveCancel = Code(rawValue: 0x2D)
        /// `CTAP2_ERR_NO_CREDENTIALS`: no credential matches the request.
        public static let noCredentials = Code(rawValue: 0x2E)
        /// `CTAP2_ERR_USER_ACTION_TIMEOUT`: the user did not act in time.
        public static let userActionTimeout = Code(rawValue: 0x2F)
        /// `CTAP2_ERR_PIN_AUTH_INVALID`: a pinUvAuthParam (or hmac-secret `saltAuth`) that does
        /// not verify.
        public static let pinAuthInvalid = Code(rawValue: 0x33)
        /// `CTAP2_ERR_UV_INVALID`: built-in user verification failed.
        public static let uvInvalid = Code(rawValue: 0x3F)
        /// `CTAP2_ERR_UV_BLOCKED`: built-in user verification is blocked after too many failures.
        public static let uvBlocked = Code(rawValue: 0x3C)
        /// `CTAP2_ERR_INTEGRITY_FAILURE`: a large-blob array whose hash does not match it.
        public static let integrityFailure = Code(rawValue: 0x3D)
        /// `CTAP2_ERR_LARGE_BLOB_STORAGE_FULL`: a large-blob array over the authenticator's limit.
        public static let largeBlobStorageFull = Code(rawValue: 0x18)
        /// `CTAP1_ERR_OTHER`: anything else, such as a store that cannot be read.
        public static let other = Code(rawValue: 0x7F)

        private static let names: [UInt8: String] = [
            0x02: "CTAP1_ERR_INVALID_PARAMETER", 0x03: "CTAP1_ERR_INVALID_LENGTH", 0x12: "CTAP2_ERR_INVALID_CBOR",
            0x14: "CTAP2_ERR_MISSING_PARAMETER", 0x18: "CTAP2_ERR_LARGE_BLOB_STORAGE_FULL",
            0x19: "CTAP2_ERR_CREDENTIAL_EXCLUDED",
            0x26: "CTAP2_ERR_UNSUPPORTED_ALGORITHM", 0x27: "CTAP2_ERR_OPERATION_DENIED",
            0x28: "CTAP2_ERR_KEY_STORE_FULL", 0x2B: "CTAP2_ERR_UNSUPPORTED_OPTION", 0x2C: "CTAP2_ERR_INVALID_OPTION",
            0x2D: "CTAP2_ERR_KEEPALIVE_CANCEL", 0x2E: "CTAP2_ERR_NO_CREDENTIALS", 0x2F: "CTAP2_ERR_USER_ACTION_TIMEOUT",
            0x33: "CTAP2_ERR_PIN_AUTH_INVALID", 0x3C: "CTAP2_ERR_UV_BLOCKED", 0x3D: "CTAP2_ERR_INTEGRITY_FAILURE",
            0x3F: "CTAP2_ERR_UV_INVALID", 0x7F: "CTAP1_ERR_OTHER",
        ]

        /// The specification's name, or the status in hex for one this library does not name.
        public var description: String {
            Self.names[rawValue] ?? "CTAP status 0x" + String(rawValue, radix: 16, uppercase: true)
        }
    }

    /// The status.
    public let code: Code
    /// Why, in words fit for a terminal; never key material.
    public let reason: String
    /// The store failure behind a ``Code/other`` or ``Code/keyStoreFull``, if any.
    public let storeError: StoreError?

    /// The store failure behind this error, if any (``storeError``).
    public var cause: (any Error)? { storeError }

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: the CTAP2 status.
    ///   - reason: why, in words fit for a terminal.
    ///   - cause: the store failure behind it, if any.
    public init(_ code: Code, _ reason: String, cause: StoreError? = nil) {
        self.code = code
        self.reason = reason
        self.storeError = cause
    }

    /// Wraps a store failure: a full disk is `CTAP2_ERR_KEY_STORE_FULL`, anything else
    /// `CTAP1_ERR_OTHER`; the store's own error stays as ``cause``.
    ///
    /// - Parameter error: what the store threw.
    public init(_ error: StoreError) {
        self.init(
            error.code == .diskFull ? .keyStoreFull : .other, "the credential store failed: \(error)", cause: error)
    }
}
