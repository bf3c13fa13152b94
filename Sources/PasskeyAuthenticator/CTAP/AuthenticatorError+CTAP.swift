import WebAuthn

extension AuthenticatorError {
    /// A failure of the core's cryptography inside a CTAP operation, as the CTAP 2.1 status the
    /// operation owes (§6.5.6, §6.5.7, §12.5): a wrong length is `CTAP1_ERR_INVALID_LENGTH`, a
    /// key-agreement key that is not a point of P-256 `CTAP1_ERR_INVALID_PARAMETER`, and anything
    /// else (OpenSSL failing) `CTAP1_ERR_OTHER`.
    init(_ error: WebAuthnError, _ context: String) {
        let code: Code =
            switch error.code {
            case .invalidLength: .invalidLength
            case .invalidKey, .malformedCOSEKey, .unsupportedAlgorithm: .invalidParameter
            default: .other
            }
        self.init(code, "\(context): \(error.reason)")
    }
}
