public import PasskeyAuthenticator
public import WebAuthn

extension ControlService {
    /// `navigator.credentials.create()` on a virtual authenticator (WebAuthn L3 §5.1.3); the new
    /// credential is reported as `credentialAdded`.
    ///
    /// Runs outside the actor: ceremonies of one authenticator run in parallel.
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - authenticatorID: the authenticator.
    ///   - options: the relying party's creation options.
    ///   - origin: the caller's origin.
    ///   - topOrigin: the top-level origin of a cross-origin iframe, if any.
    ///   - mediation: `conditional` for a create made without asking the user.
    /// - Returns: the registration response, as `PublicKeyCredential.toJSON()` gives it.
    /// - Throws: ``ControlError``: the refusal's `DOMException` name, or `invalid argument`.
    public nonisolated func create(
        session: String, authenticator authenticatorID: String, options: PublicKeyCredentialCreationOptionsJSON,
        origin: WebOrigin, topOrigin: WebOrigin? = nil, mediation: CredentialMediation = .optional
    ) async throws(ControlError) -> RegistrationResponseJSON {
        let (authenticator, events) = try await ceremonyParts(session: session, authenticatorID)
        let client = self.client(authenticator)
        try await consenting(
            SiteConsent.Request(origin: origin, topOrigin: topOrigin, operation: .create, rpID: options.rp.id),
            client: client)
        let response = try await metrics.measuring(.create) { () async throws(WebAuthnClientError) in
            try await client.create(
                options, origin: origin, topOrigin: topOrigin, mediation: mediation)
        }
        events.record(
            ControlEvent(
                .credentialAdded, authenticatorId: authenticatorID, credentialId: response.rawId.bytes,
                rpId: (options.rp.id ?? origin.host).lowercased(), origin: origin, userHandle: options.user.id.bytes,
                signCount: response.response.authenticatorData.flatMap { Self.signCount($0.bytes) }))
        return response
    }

    /// `navigator.credentials.get()` on a virtual authenticator (WebAuthn L3 §5.1.4), through the
    /// client's one JSON path (`WebAuthnClient.get(json:origin:topOrigin:)`); the credential
    /// used is reported as `credentialAsserted`.
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - authenticatorID: the authenticator.
    ///   - options: the relying party's `PublicKeyCredentialRequestOptionsJSON`, UTF-8 JSON text.
    ///   - origin: the caller's origin.
    ///   - topOrigin: the top-level origin, if any.
    ///   - choice: which credential the simulated user picks among several.
    /// - Returns: the authentication response as JSON text, with its credential ID, user handle
    ///   and counter.
    /// - Throws: ``ControlError``: the refusal's `DOMException` name, or `invalid argument`.
    public nonisolated func get(
        session: String, authenticator authenticatorID: String, options: [UInt8], origin: WebOrigin,
        topOrigin: WebOrigin? = nil, choosing choice: AccountChoice = .mostRecent
    ) async throws(ControlError) -> ClientAssertion {
        var (authenticator, events) = try await ceremonyParts(session: session, authenticatorID)
        authenticator.accountChoice = choice
        let client = self.client(authenticator)
        if consent != nil {
            // Options that do not decode ask with the origin's host; the ceremony then refuses them.
            let rpID = (try? WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: options))?.rpId
            try await consenting(
                SiteConsent.Request(origin: origin, topOrigin: topOrigin, operation: .get, rpID: rpID), client: client)
        }
        let assertion = try await metrics.measuring(.get) { () async throws(WebAuthnClientError) in
            try await client.get(json: options, origin: origin, topOrigin: topOrigin)
        }
        events.record(
            ControlEvent(
                .credentialAsserted, authenticatorId: authenticatorID, credentialId: assertion.credentialID,
                rpId: assertion.rpID, origin: origin, userHandle: assertion.userHandle, signCount: assertion.signCount))
        return assertion
    }

    /// The authenticator a ceremony runs on and the log its outcome goes to.
    func ceremonyParts(session: String, _ authenticatorID: String) throws(ControlError)
        -> (SoftwareAuthenticator, ControlEventLog)
    {
        (try authenticator(session: session, authenticatorID).authenticator, try eventLog(session: session))
    }

    /// The WebAuthn client of a ceremony on `authenticator`, fetching related origins with
    /// ``relatedOrigins``.
    nonisolated func client(_ authenticator: SoftwareAuthenticator) -> WebAuthnClient {
        WebAuthnClient(authenticator: authenticator, relatedOrigins: relatedOrigins)
    }

    /// The signature counter of authenticator data (WebAuthn L3 §6.1: bytes 33–36, big-endian).
    static func signCount(_ authenticatorData: [UInt8]) -> UInt32? {
        guard authenticatorData.count >= 37 else { return nil }
        return authenticatorData[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
