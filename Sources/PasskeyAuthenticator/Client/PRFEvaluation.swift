import WebAuthn

/// The `prf` extension of an assertion (WebAuthn L3 §10.1.4), carried by CTAP 2.1 hmac-secret
/// (§12.5) over PIN/UV auth protocol two.
///
/// The inputs are the credential's entry of `evalByCredential`, else `eval`; each becomes an
/// hmac-secret salt `SHA-256("WebAuthn PRF" ‖ 0x00 ‖ input)`, encrypted to the authenticator's
/// key-agreement key. When `evalByCredential` names credentials and the allow list has several,
/// the client first asks silently (`up` = false) which credential the authenticator will use, then
/// narrows the allow list to it, as browsers do.
struct PRFEvaluation {
    private let sharedSecret: PINUVAuthSharedSecret?

    /// Validates the inputs, picks the credential's, and adds the hmac-secret input to `request`.
    ///
    /// - Throws: `NotSupportedError` for `evalByCredential` without an allow list, `SyntaxError`
    ///   for a key that is not base64url or not in the allow list (§10.1.4 steps 1–2).
    init(
        _ inputs: AuthenticationExtensionsPRFInputsJSON, request: inout GetAssertionRequest, client: WebAuthnClient
    ) async throws(WebAuthnClientError) {
        var byCredential: [[UInt8]: AuthenticationExtensionsPRFValuesJSON] = [:]
        for (key, values) in inputs.evalByCredential ?? [:] {
            guard !request.allowList.isEmpty else {
                throw WebAuthnClientError(.notSupported, "prf.evalByCredential needs allowCredentials")
            }
            guard let id = try? Base64URL.decode(key), !key.isEmpty, request.allowList.contains(id) else {
                throw WebAuthnClientError(
                    .syntax, "prf.evalByCredential key \"\(key)\" is not a credential of allowCredentials")
            }
            byCredential[id] = values
        }
        var chosen = request.allowList.count == 1 ? request.allowList.first : nil
        if !byCredential.isEmpty, chosen == nil {
            var silent = request
            silent.userPresence = false
            silent.userVerification = false
            chosen = try await client.asking { () async throws(AuthenticatorError) in
                try await client.authenticator.getAssertion(silent)
            }.credentialID
            request.allowList = chosen.map { [$0] } ?? request.allowList
        }
        guard let values = chosen.flatMap({ byCredential[$0] }) ?? inputs.eval else {
            sharedSecret = nil
            return
        }
        guard let (input, sharedSecret) = try await Self.input(values, client: client) else {
            sharedSecret = nil
            return
        }
        request.hmacSecret = input
        self.sharedSecret = sharedSecret
    }

    /// The hmac-secret input of PRF values: each salt `SHA-256("WebAuthn PRF" ‖ 0x00 ‖ input)`,
    /// encrypted to the authenticator's key-agreement key over PIN/UV auth protocol two; `nil`
    /// when the authenticator has no key agreement.
    static func input(_ values: AuthenticationExtensionsPRFValuesJSON, client: WebAuthnClient)
        async throws(WebAuthnClientError) -> (HMACSecretInput, PINUVAuthSharedSecret)?
    {
        do {
            let keyAgreement = try await client.authenticator.keyAgreement(.two)
            return try HMACSecret.input(
                salt1: HMACSecret.salt(forPRFInput: values.first.bytes),
                salt2: values.second.map { HMACSecret.salt(forPRFInput: $0.bytes) },
                authenticatorKeyAgreement: keyAgreement, pinUVAuthProtocol: .two)
        } catch  where error.code == .unsupportedOption {
            return nil
        } catch {
            throw WebAuthnClientError(error)
        }
    }

    /// The PRF results in an authenticator's encrypted hmac-secret output.
    ///
    /// - Throws: `NotAllowedError` when the output does not decrypt.
    static func results(_ output: [UInt8], sharedSecret: PINUVAuthSharedSecret) throws(WebAuthnClientError)
        -> AuthenticationExtensionsPRFValuesJSON
    {
        do {
            let (first, second) = try HMACSecret.outputs(output, sharedSecret: sharedSecret)
            return AuthenticationExtensionsPRFValuesJSON(first: Base64URL(first), second: second.map { Base64URL($0) })
        } catch {
            throw WebAuthnClientError(.notAllowed, "the authenticator's hmac-secret output is invalid: \(error)")
        }
    }

    /// The `prf` output: the decrypted hmac-secret results, or none when the authenticator gave
    /// none.
    func results(_ authenticatorData: AuthenticatorData) throws(WebAuthnClientError)
        -> AuthenticationExtensionsPRFOutputsJSON
    {
        guard let sharedSecret,
            let output = authenticatorData.extensions?.mapValue?[.text("hmac-secret")]?.bytesValue
        else {
            return AuthenticationExtensionsPRFOutputsJSON()
        }
        return AuthenticationExtensionsPRFOutputsJSON(results: try Self.results(output, sharedSecret: sharedSecret))
    }
}
