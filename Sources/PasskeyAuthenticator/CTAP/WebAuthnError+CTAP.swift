package import WebAuthn

// The CTAP layer reports its failures as `WebAuthnError`s with these codes, one per CTAP 2.1
// status (§8.2) it can produce, until the authenticator's own error type maps them. The core's
// `invalid-length` stands for CTAP1_ERR_INVALID_LENGTH (0x03).

extension WebAuthnError.Code {
    /// CTAP1_ERR_INVALID_PARAMETER (0x02): a parameter has the wrong type or an unsupported value,
    /// or a key-agreement key is not a point of P-256.
    package static let invalidParameter = Self(rawValue: "invalid-parameter")
    /// CTAP2_ERR_MISSING_PARAMETER (0x14): a required parameter is absent.
    package static let missingParameter = Self(rawValue: "missing-parameter")
    /// CTAP2_ERR_PIN_AUTH_INVALID (0x33): an authentication code does not verify.
    package static let pinAuthInvalid = Self(rawValue: "pin-auth-invalid")
}
