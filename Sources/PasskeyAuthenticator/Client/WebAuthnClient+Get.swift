public import WebAuthn

extension WebAuthnClient {
    /// Signs in with an existing credential (`navigator.credentials.get`, WebAuthn L3 §5.1.4).
    ///
    /// With an empty `allowCredentials` the authenticator picks a discoverable credential for
    /// the RP ID.
    ///
    /// - Parameters:
    ///   - options: the relying party's request options.
    ///   - origin: the caller's origin.
    ///   - topOrigin: the top-level origin when the caller is a cross-origin iframe.
    /// - Returns: the authentication response, as `PublicKeyCredential.toJSON()` gives it.
    /// - Throws: ``WebAuthnClientError``: `SecurityError` for the origin or RP ID (with
    ///   ``relatedOrigins``, also when the RP ID's related origins do not list the origin), `SyntaxError`
    ///   or `NotSupportedError` for malformed options, `NotAllowedError` when no credential
    ///   matches or the user refuses.
    public func get(
        _ options: PublicKeyCredentialRequestOptionsJSON, origin: WebOrigin, topOrigin: WebOrigin? = nil
    ) async throws(WebAuthnClientError) -> AuthenticationResponseJSON {
        try await assertion(options, origin: origin, topOrigin: topOrigin).response
    }

    /// ``get(_:origin:topOrigin:)``'s response, with the RP ID it ran under and the signature
    /// counter the authenticator data carries.
    func assertion(_ options: PublicKeyCredentialRequestOptionsJSON, origin: WebOrigin, topOrigin: WebOrigin?)
        async throws(WebAuthnClientError) -> (response: AuthenticationResponseJSON, rpID: String, signCount: UInt32)
    {
        let rpID = try await CallerOrigin.rpID(options.rpId, for: origin, relatedOrigins: relatedOrigins)
        try Self.check(challenge: options.challenge)
        let info = authenticator.info
        let verification = try Self.userVerification(options.userVerification, info: info)
        let clientData = Self.clientData(.get, challenge: options.challenge, origin: origin, topOrigin: topOrigin)
        var request = GetAssertionRequest(
            rpID: rpID, clientDataHash: clientData.hash,
            allowList: (options.allowCredentials ?? []).filter { $0.type == .publicKey }.map(\.id.bytes),
            userVerification: verification.ask)
        let ctap = try CTAPExtensionInputs(options.extensions)
        request.getCredBlob = ctap.getCredBlob && info.extensions.contains("credBlob")
        let largeBlob = try LargeBlobExtension(options.extensions)
        request.largeBlobKey = try largeBlob?.checkAssertion(info, allowList: request.allowList) ?? false
        var prf: PRFEvaluation?
        if let inputs = options.extensions?.prf {
            prf = try await PRFEvaluation(inputs, request: &request, client: self)
        }
        let response = try await asking(
            request, droppingVerification: !verification.required, \.userVerification,
            authenticator.getAssertion)
        var extensionResults = AuthenticationExtensionsClientOutputsJSON()
        if let prf {
            extensionResults.prf = try prf.results(response.authenticatorData)
        }
        if let largeBlob {
            extensionResults.otherExtensions["largeBlob"] = await largeBlob.assertionOutput(
                response.largeBlobKey, client: self)
        }
        if request.getCredBlob {
            let blob = response.authenticatorData.extensions?.mapValue?[.text("credBlob")]?.bytesValue ?? []
            extensionResults.otherExtensions["getCredBlob"] = .string(Base64URL.encode(blob))
        }
        let json = AuthenticationResponseJSON(
            rawId: Base64URL(response.credentialID),
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URL(clientData.bytes),
                authenticatorData: Base64URL(response.authenticatorData.bytes),
                signature: Base64URL(response.signature),
                userHandle: response.userHandle.map { Base64URL($0) }),
            authenticatorAttachment: response.attachment ?? info.attachment, clientExtensionResults: extensionResults)
        return (json, rpID, response.authenticatorData.signCount)
    }
}
