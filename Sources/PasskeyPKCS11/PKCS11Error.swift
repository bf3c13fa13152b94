public import WebAuthn

/// A failure of a PKCS#11 module or token, with the `CKR_` return value when the module gave one
/// (PKCS#11 2.40 §5.1), and never a PIN or a key in its text (STYLE §5).
public struct PKCS11Error: CodedError, Hashable {
    /// What went wrong.
    public struct Code: ErrorCode {
        public let rawValue: String

        /// Wraps a kebab-case identifier.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The module file cannot be loaded, or is not a PKCS#11 module.
        public static let moduleUnavailable = Code(rawValue: "module-unavailable")
        /// No slot holds a token with the label asked for (removed, or never made).
        public static let tokenNotFound = Code(rawValue: "token-not-found")
        /// The PIN is wrong (`CKR_PIN_INCORRECT`), locked or expired.
        public static let wrongPIN = Code(rawValue: "wrong-pin")
        /// The token does not support the mechanism (`CKR_MECHANISM_INVALID`), for example EdDSA.
        public static let unsupportedMechanism = Code(rawValue: "unsupported-mechanism")
        /// No key with the credential's ID is on the token.
        public static let keyNotFound = Code(rawValue: "key-not-found")
        /// Any other `CKR_` value.
        public static let failed = Code(rawValue: "failed")
    }

    /// What went wrong.
    public let code: Code
    /// The call and what the module said, in words.
    public let reason: String
    /// The module's return value, when there was one.
    public let returnValue: UInt?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - reason: the call and what happened.
    ///   - returnValue: the `CKR_` value, if any.
    public init(_ code: Code, _ reason: String, returnValue: UInt? = nil) {
        self.code = code
        self.reason = reason
        self.returnValue = returnValue
    }

    /// Errors are equal when their codes are: the reason is for people.

    /// The error of a failed call: the code its return value means, and the value's name.
    static func call(_ function: String, _ value: UInt) -> PKCS11Error {
        let code: Code
        switch value {
        case 0xA0, 0xA4, 0xA3:  // CKR_PIN_INCORRECT, CKR_PIN_LOCKED, CKR_PIN_EXPIRED
            code = .wrongPIN
        case 0x70:  // CKR_MECHANISM_INVALID
            code = .unsupportedMechanism
        case 0xE0, 0xE1, 0x32, 0x30:  // CKR_TOKEN_NOT_PRESENT, _RECOGNIZED, CKR_DEVICE_REMOVED, _ERROR
            code = .tokenNotFound
        default:
            code = .failed
        }
        return PKCS11Error(code, "\(function) returned \(name(value))", returnValue: value)
    }

    /// The specification's name of a return value, or its hex.
    static func name(_ value: UInt) -> String {
        let names: [UInt: String] = [
            0x00: "CKR_OK", 0x05: "CKR_GENERAL_ERROR", 0x06: "CKR_FUNCTION_FAILED", 0x07: "CKR_ARGUMENTS_BAD",
            0x12: "CKR_ATTRIBUTE_TYPE_INVALID", 0x11: "CKR_ATTRIBUTE_SENSITIVE", 0x13: "CKR_ATTRIBUTE_VALUE_INVALID",
            0x30: "CKR_DEVICE_ERROR", 0x32: "CKR_DEVICE_REMOVED", 0x60: "CKR_KEY_HANDLE_INVALID",
            0x70: "CKR_MECHANISM_INVALID", 0x82: "CKR_OBJECT_HANDLE_INVALID", 0xA0: "CKR_PIN_INCORRECT",
            0xA3: "CKR_PIN_EXPIRED", 0xA4: "CKR_PIN_LOCKED", 0xB3: "CKR_SESSION_HANDLE_INVALID",
            0xD1: "CKR_TEMPLATE_INCONSISTENT", 0xE0: "CKR_TOKEN_NOT_PRESENT", 0xE1: "CKR_TOKEN_NOT_RECOGNIZED",
            0x100: "CKR_USER_ALREADY_LOGGED_IN", 0x101: "CKR_USER_NOT_LOGGED_IN", 0x150: "CKR_BUFFER_TOO_SMALL",
            0x190: "CKR_CRYPTOKI_NOT_INITIALIZED", 0x191: "CKR_CRYPTOKI_ALREADY_INITIALIZED",
        ]
        return names[value] ?? "CKR 0x" + String(value, radix: 16)
    }
}
