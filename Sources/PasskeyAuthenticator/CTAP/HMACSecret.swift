public import WebAuthn

/// The `hmac-secret` extension of CTAP 2.1 (§12.5), both sides, and the WebAuthn `prf`
/// extension's salts on top of it (WebAuthn L3 §10.1.4).
///
/// ```
/// platform:       (keyAgreement, secret) = encapsulate(authenticator's key)
///                 saltEnc  = secret.encrypt(salt1 [‖ salt2])        ; salts of 32 bytes
///                 saltAuth = secret.authenticate(saltEnc)
/// authenticator:  output1  = HMAC-SHA-256(CredRandom, salt1)        ; [output2 likewise]
///                 output   = secret.encrypt(output1 [‖ output2])
/// ```
///
/// `CredRandom` is the credential's 32-byte seed, one for requests with user verification and
/// one for requests without (``StoredCredential`` keeps both as blobs of its store: sealed, or
/// derived from the store key); the caller picks it.
public enum HMACSecret {
    /// The length of a salt and of an output, in bytes.
    package static let saltLength = 32

    /// The salt the `prf` extension sends for an input (WebAuthn L3 §10.1.4): the input hashed
    /// under a context string, so a web page cannot ask for the secret of a salt other software
    /// uses with `hmac-secret` directly.
    ///
    /// - Parameter input: a `prf` evaluation input (`eval.first`, `eval.second`), any length.
    /// - Returns: `SHA-256(UTF-8("WebAuthn PRF") ‖ 0x00 ‖ input)`.
    public static func salt(forPRFInput input: some Collection<UInt8>) -> [UInt8] {
        SHA256Digest.hash(Array("WebAuthn PRF".utf8) + [0x00] + Array(input))
    }

    /// Builds the platform's request input (§12.5, getAssertion "Client extension processing").
    ///
    /// - Parameters:
    ///   - salt1: the first salt, 32 bytes.
    ///   - salt2: an optional second salt, 32 bytes.
    ///   - authenticatorKeyAgreement: the authenticator's key-agreement public key.
    ///   - pinUVAuthProtocol: the protocol to use.
    /// - Returns: the input to send, and the shared secret to read the output with.
    /// - Throws: ``AuthenticatorError`` with `CTAP1_ERR_INVALID_LENGTH` for a salt that is not 32
    ///   bytes, or `CTAP1_ERR_INVALID_PARAMETER` when the authenticator's key is not a point of
    ///   P-256.
    public static func input(
        salt1: [UInt8], salt2: [UInt8]? = nil, authenticatorKeyAgreement: COSEKey,
        pinUVAuthProtocol: PINUVAuthProtocol
    ) throws(AuthenticatorError) -> (input: HMACSecretInput, sharedSecret: PINUVAuthSharedSecret) {
        let (keyAgreement, sharedSecret) = try pinUVAuthProtocol.encapsulate(peer: authenticatorKeyAgreement)
        let input = try input(salt1: salt1, salt2: salt2, keyAgreement: keyAgreement, sharedSecret: sharedSecret)
        return (input, sharedSecret)
    }

    /// Test seam: ``input(salt1:salt2:authenticatorKeyAgreement:pinUVAuthProtocol:)`` with the
    /// key agreement done and, for protocol two, the IV chosen.
    package static func input(
        salt1: [UInt8], salt2: [UInt8]?, keyAgreement: COSEKey, sharedSecret: PINUVAuthSharedSecret,
        iv: [UInt8]? = nil
    ) throws(AuthenticatorError) -> HMACSecretInput {
        for salt in [salt1] + (salt2.map { [$0] } ?? []) where salt.count != saltLength {
            throw AuthenticatorError(.invalidLength, "an hmac-secret salt is \(saltLength) bytes, not \(salt.count)")
        }
        let salts = salt1 + (salt2 ?? [])
        let saltEnc = if let iv { try sharedSecret.encrypt(salts, iv: iv) } else { try sharedSecret.encrypt(salts) }
        return HMACSecretInput(
            keyAgreement: keyAgreement, saltEnc: saltEnc, saltAuth: sharedSecret.authenticate(saltEnc),
            pinUVAuthProtocol: sharedSecret.pinUVAuthProtocol)
    }

    /// Reads the authenticator's output on the platform (§12.5, getAssertion "Client extension
    /// processing").
    ///
    /// - Parameters:
    ///   - output: the `hmac-secret` value of the response's extensions.
    ///   - sharedSecret: the secret ``input(salt1:salt2:authenticatorKeyAgreement:pinUVAuthProtocol:)``
    ///     returned.
    /// - Returns: the output for the first salt and, when two were sent, for the second.
    /// - Throws: ``AuthenticatorError`` with `CTAP1_ERR_INVALID_LENGTH` unless the output decrypts
    ///   to 32 or 64 bytes.
    public static func outputs(_ output: [UInt8], sharedSecret: PINUVAuthSharedSecret) throws(AuthenticatorError) -> (
        first: [UInt8], second: [UInt8]?
    ) {
        let outputs = try sharedSecret.decrypt(output)
        switch outputs.count {
        case saltLength: return (outputs, nil)
        case 2 * saltLength: return (Array(outputs.prefix(saltLength)), Array(outputs.suffix(saltLength)))
        default:
            throw AuthenticatorError(
                .invalidLength, "an hmac-secret output decrypts to 32 or 64 bytes, not \(outputs.count)")
        }
    }

    /// Computes the authenticator's output (§12.5, getAssertion "Authenticator extension
    /// processing").
    ///
    /// - Parameters:
    ///   - input: the request's `hmac-secret` input.
    ///   - keyAgreementKey: the authenticator's key-agreement key, whose public half the platform
    ///     used.
    ///   - credRandom: the credential's seed for this request: `CredRandomWithUV` when the user was
    ///     verified, `CredRandomWithoutUV` otherwise.
    /// - Returns: the encrypted outputs, the `hmac-secret` value of the response's extensions.
    /// - Throws: ``AuthenticatorError`` with `CTAP1_ERR_INVALID_PARAMETER` when the platform's key
    ///   is not a point of P-256, `CTAP2_ERR_PIN_AUTH_INVALID` when `saltAuth` does not verify, or
    ///   `CTAP1_ERR_INVALID_LENGTH` when the salts are not 32 or 64 bytes.
    public static func output(
        for input: HMACSecretInput, keyAgreementKey: KeyAgreementPrivateKey, credRandom: SecretKey
    ) throws(AuthenticatorError) -> [UInt8] {
        let sharedSecret = try input.pinUVAuthProtocol.decapsulate(peer: input.keyAgreement, using: keyAgreementKey)
        return try output(for: input, sharedSecret: sharedSecret, credRandom: credRandom)
    }

    /// The first half of the authenticator's processing, for an authenticator whose store keeps
    /// `CredRandom` (``CredentialStore/hmacSecret(_:with:userVerified:)``): the shared secret
    /// agreed with the platform, `saltAuth` checked, and the salts decrypted.
    ///
    /// - Parameters:
    ///   - input: the request's `hmac-secret` input.
    ///   - keyAgreementKey: the authenticator's key-agreement key.
    /// - Returns: one or two 32-byte salts, and the shared secret to encrypt the outputs with
    ///   (``output(_:sharedSecret:)``).
    /// - Throws: as ``output(for:keyAgreementKey:credRandom:)``.
    public static func salts(of input: HMACSecretInput, keyAgreementKey: KeyAgreementPrivateKey)
        throws(AuthenticatorError) -> (salts: [[UInt8]], sharedSecret: PINUVAuthSharedSecret)
    {
        let sharedSecret = try input.pinUVAuthProtocol.decapsulate(peer: input.keyAgreement, using: keyAgreementKey)
        return (try salts(of: input, sharedSecret: sharedSecret), sharedSecret)
    }

    /// The second half: the outputs `HMAC-SHA-256(CredRandom, salt)`, concatenated and encrypted
    /// with the shared secret.
    ///
    /// - Parameters:
    ///   - outputs: one output per salt, 32 bytes each.
    ///   - sharedSecret: the secret ``salts(of:keyAgreementKey:)`` returned.
    /// - Returns: the `hmac-secret` value of the response's extensions.
    /// - Throws: ``AuthenticatorError`` when encryption fails.
    public static func output(_ outputs: [[UInt8]], sharedSecret: PINUVAuthSharedSecret) throws(AuthenticatorError)
        -> [UInt8]
    {
        try output(outputs, sharedSecret: sharedSecret, iv: nil)
    }

    /// Test seam: ``output(for:keyAgreementKey:credRandom:)`` with the key agreement done and, for
    /// protocol two, the IV chosen.
    package static func output(
        for input: HMACSecretInput, sharedSecret: PINUVAuthSharedSecret, credRandom: SecretKey,
        iv: [UInt8]? = nil
    ) throws(AuthenticatorError) -> [UInt8] {
        var salts = try salts(of: input, sharedSecret: sharedSecret)
        defer { for index in salts.indices { secureZero(&salts[index]) } }
        let outputs = credRandom.withUnsafeBytes { credRandom in
            salts.map { HMACSHA256.authenticationCode(for: $0, key: credRandom) }
        }
        return try output(outputs, sharedSecret: sharedSecret, iv: iv)
    }

    /// Checks `saltAuth` and decrypts the salts (§12.5: `saltEnc` holds one or two 32-byte salts).
    private static func salts(of input: HMACSecretInput, sharedSecret: PINUVAuthSharedSecret)
        throws(AuthenticatorError) -> [[UInt8]]
    {
        guard sharedSecret.verify(input.saltAuth, for: input.saltEnc) else {
            throw AuthenticatorError(.pinAuthInvalid, "hmac-secret saltAuth does not authenticate saltEnc")
        }
        var salts = try sharedSecret.decrypt(input.saltEnc)
        defer { secureZero(&salts) }
        guard salts.count == saltLength || salts.count == 2 * saltLength else {
            throw AuthenticatorError(.invalidLength, "hmac-secret salts are 32 or 64 bytes, not \(salts.count)")
        }
        return stride(from: 0, to: salts.count, by: saltLength).map { Array(salts[$0..<$0 + saltLength]) }
    }

    /// Encrypts the concatenated outputs, with the IV chosen in tests.
    private static func output(_ outputs: [[UInt8]], sharedSecret: PINUVAuthSharedSecret, iv: [UInt8]?)
        throws(AuthenticatorError) -> [UInt8]
    {
        var joined = outputs.flatMap { $0 }
        defer { secureZero(&joined) }
        return if let iv { try sharedSecret.encrypt(joined, iv: iv) } else { try sharedSecret.encrypt(joined) }
    }
}
