public import WebAuthn

extension WebAuthnClient {
    /// Signs in with an existing credential from options JSON to response JSON
    /// (`navigator.credentials.get` with `PublicKeyCredential.parseRequestOptionsFromJSON` before
    /// and `toJSON()` after, WebAuthn L3 §5.1.4, §5.1.9, §5.1.10): what a front end that speaks
    /// JSON on both sides calls (a CLI, a control server, a page bridge).
    ///
    /// This is the one assertion path of every front end that speaks JSON (`passkey get`, the
    /// control service, its page bridge and MCP tools): the answer is the one
    /// ``get(_:origin:topOrigin:)`` gives, written as `WebAuthnJSON` writes it, with what the
    /// front end reports of it. The plain case, a ``SoftwareAuthenticator`` over a store that has the credential
    /// at hand (``InMemoryCredentialStore``; a ``FileCredentialStore`` whose file is unchanged since
    /// it last read it) and options without extension inputs, runs without suspending: the options
    /// read in place, the client data and the response written straight into the response's bytes,
    /// no hop to the store's actor or thread. Anything else (extensions, another authenticator, a
    /// counter to advance, an error) takes ``get(_:origin:topOrigin:)``.
    ///
    /// ```swift
    /// let response = try await client.get(json: requestOptionsJSON, origin: origin)
    /// ```
    ///
    /// - Parameters:
    ///   - options: `PublicKeyCredentialRequestOptionsJSON` as UTF-8 JSON text.
    ///   - origin: the caller's origin.
    ///   - topOrigin: the top-level origin when the caller is a cross-origin iframe.
    /// - Returns: the `AuthenticationResponseJSON` as UTF-8 JSON text, its credential ID, user
    ///   handle, signature counter and RP ID.
    /// - Throws: ``WebAuthnClientError``: `SyntaxError` when the options are not valid JSON options
    ///   (the reason names the member), else as ``get(_:origin:topOrigin:)``.
    public func get(json options: [UInt8], origin: WebOrigin, topOrigin: WebOrigin? = nil)
        async throws(WebAuthnClientError) -> ClientAssertion
    {
        if let software = authenticator as? SoftwareAuthenticator, let plain = PlainRequestOptions(options),
            let response = Self.immediateResponse(plain, in: options, software, origin: origin, topOrigin: topOrigin)
        {
            return response
        }
        let decoded: PublicKeyCredentialRequestOptionsJSON
        do {
            decoded = try WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: options)
        } catch {
            throw WebAuthnClientError(.syntax, "the request options are not valid: \(error.reason)")
        }
        let (response, rpID, signCount) = try await assertion(decoded, origin: origin, topOrigin: topOrigin)
        return ClientAssertion(
            json: WebAuthnJSON.encode(response), credentialID: response.rawId.bytes,
            userHandle: response.response.userHandle?.bytes, signCount: signCount, rpID: rpID)
    }

    /// The plain case of ``get(json:origin:topOrigin:)``, in the steps of ``get(_:origin:topOrigin:)``
    /// (the RP ID, user verification, the client data, the assertion, the response) without
    /// suspending; `nil` wherever that would suspend or fail.
    private static func immediateResponse(
        _ options: PlainRequestOptions, in text: [UInt8], _ authenticator: SoftwareAuthenticator, origin: WebOrigin,
        topOrigin: WebOrigin?
    ) -> ClientAssertion? {
        let challenge = text[options.challenge]
        guard !challenge.isEmpty, let rpID = CallerOrigin.ownRPID(options.rpID, for: origin),
            let verification = try? userVerification(
                options.userVerification, supported: authenticator.profile.supportsUserVerification)
        else {
            return nil
        }
        var clientData: [UInt8] = []
        clientData.reserveCapacity(96 + challenge.count + origin.host.utf8.count * 2)
        CollectedClientData.append(
            type: .get, challenge: challenge, origin: origin.description, crossOrigin: topOrigin != nil,
            topOrigin: topOrigin?.description, to: &clientData)
        guard
            let assertion = authenticator.immediateAssertion(
                rpID: rpID, clientDataHash: SHA256Digest.hash(clientData), allowList: options.allowList,
                userVerification: verification.ask),
            assertion.attachment.rawValue.utf8.allSatisfy({ (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C })
        else {
            return nil
        }
        let credential = assertion.credential
        return ClientAssertion(
            json: responseJSON(assertion, clientData: clientData), credentialID: credential.id,
            userHandle: credential.userHandle.isEmpty ? nil : credential.userHandle, signCount: 0, rpID: rpID)
    }

    /// `AuthenticationResponseJSON` as ``WebAuthnJSON/encode(_:)`` writes it (members in key
    /// order; no client extension outputs), straight into one buffer.
    private static func responseJSON(_ assertion: SoftwareAuthenticator.ImmediateAssertion, clientData: [UInt8])
        -> [UInt8]
    {
        let credential = assertion.credential
        let authenticatorData = assertion.signedBytes.prefix(
            SoftwareAuthenticator.ImmediateAssertion.authenticatorDataCount)
        var json: [UInt8] = []
        json.reserveCapacity(
            200
                + (credential.id.count * 2 + authenticatorData.count + clientData.count + assertion.signature.count
                    + credential.userHandle.count) * 4 / 3)
        json += #"{"authenticatorAttachment":""#.utf8
        json += assertion.attachment.rawValue.utf8
        json += #"","clientExtensionResults":{},"id":""#.utf8
        Base64URL.append(credential.id, to: &json)
        json += #"","rawId":""#.utf8
        Base64URL.append(credential.id, to: &json)
        json += #"","response":{"authenticatorData":""#.utf8
        Base64URL.append(authenticatorData, to: &json)
        json += #"","clientDataJSON":""#.utf8
        Base64URL.append(clientData, to: &json)
        json += #"","signature":""#.utf8
        Base64URL.append(assertion.signature, to: &json)
        if !credential.userHandle.isEmpty {
            json += #"","userHandle":""#.utf8
            Base64URL.append(credential.userHandle, to: &json)
        }
        json += #""},"type":"public-key"}"#.utf8
        return json
    }
}
