public import WebAuthn

/// The `hmac-secret` input of an `authenticatorGetAssertion` request (CTAP 2.1 §12.5).
///
/// ```
/// hmac-secret = {
///     1: keyAgreement,         ; COSE_Key, the platform's key-agreement public key
///     2: saltEnc,              ; bytes, encrypt(sharedSecret, salt1 [‖ salt2])
///     3: saltAuth,             ; bytes, authenticate(sharedSecret, saltEnc)
///   ? 4: pinUvAuthProtocol,    ; uint, 1 when absent
/// }
/// ```
///
/// Encoding always writes key 4, which the specification requires for every protocol but one.
public struct HMACSecretInput: Sendable, Hashable {
    /// The platform's key-agreement public key.
    public let keyAgreement: COSEKey
    /// The encrypted salt or salts.
    public let saltEnc: [UInt8]
    /// The authentication code of ``saltEnc``.
    public let saltAuth: [UInt8]
    /// The protocol of the shared secret.
    public let pinUVAuthProtocol: PINUVAuthProtocol

    /// Creates an input from its parts.
    ///
    /// - Parameters:
    ///   - keyAgreement: the platform's key-agreement public key.
    ///   - saltEnc: the encrypted salt or salts.
    ///   - saltAuth: the authentication code of `saltEnc`.
    ///   - pinUVAuthProtocol: the protocol of the shared secret.
    public init(keyAgreement: COSEKey, saltEnc: [UInt8], saltAuth: [UInt8], pinUVAuthProtocol: PINUVAuthProtocol) {
        self.keyAgreement = keyAgreement
        self.saltEnc = saltEnc
        self.saltAuth = saltAuth
        self.pinUVAuthProtocol = pinUVAuthProtocol
    }

    /// Reads the input from the value of the `hmac-secret` key in the request's extensions map.
    ///
    /// - Parameter cbor: the decoded map.
    /// - Throws: ``AuthenticatorError`` with `CTAP2_ERR_MISSING_PARAMETER` when key 1, 2 or 3 is
    ///   absent, or `CTAP1_ERR_INVALID_PARAMETER` for a value of the wrong type, a key that is not
    ///   a COSE_Key, or a protocol other than 1 and 2.
    public init(cbor: CBOR) throws(AuthenticatorError) {
        guard cbor.mapValue != nil else {
            throw AuthenticatorError(.invalidParameter, "the hmac-secret input is a CBOR map")
        }
        guard let keyAgreement = cbor[1], let saltEnc = cbor[2], let saltAuth = cbor[3] else {
            throw AuthenticatorError(
                .missingParameter, "the hmac-secret input needs keyAgreement (1), saltEnc (2), saltAuth (3)")
        }
        do throws(WebAuthnError) {
            self.keyAgreement = try COSEKey(cbor: keyAgreement)
        } catch {
            throw AuthenticatorError(.invalidParameter, "hmac-secret keyAgreement (1): \(error.reason)")
        }
        guard let saltEnc = saltEnc.bytesValue, let saltAuth = saltAuth.bytesValue else {
            throw AuthenticatorError(.invalidParameter, "hmac-secret saltEnc (2) and saltAuth (3) are byte strings")
        }
        self.saltEnc = saltEnc
        self.saltAuth = saltAuth
        guard let number = cbor[4] else {
            pinUVAuthProtocol = .one
            return
        }
        guard let value = number.intValue, let known = PINUVAuthProtocol(rawValue: value) else {
            throw AuthenticatorError(.invalidParameter, "hmac-secret pinUvAuthProtocol (4) is not 1 or 2")
        }
        pinUVAuthProtocol = known
    }

    /// The input as a CBOR map, to put under `hmac-secret` in the request's extensions.
    public var cbor: CBOR {
        [1: keyAgreement.cbor, 2: .bytes(saltEnc), 3: .bytes(saltAuth), 4: CBOR(pinUVAuthProtocol.rawValue)]
    }
}
