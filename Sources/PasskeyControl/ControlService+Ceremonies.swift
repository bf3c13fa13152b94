public import PasskeyAuthenticator
public import WebAuthn

extension ControlService {
    /// `navigator.credentials.create()` on a virtual authenticator (WebAuthn L3 §5.1.3).
    ///
    /// Runs outside the actor: ceremonies of one authenticator run in parallel.
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - authenticatorID: the authenticator.
    ///   - options: the relying party's creation options.
    ///   - origin: the caller's origin.
    ///   - topOrigin: the top-level origin of a cross-origin iframe, if any.
    /// - Returns: the registration response, as `PublicKeyCredential.toJSON()` gives it.
    /// - Throws: ``ControlError``: the refusal's `DOMException` name, or `invalid argument`.
    public nonisolated func create(
        session: String, authenticator authenticatorID: String, options: PublicKeyCredentialCreationOptionsJSON,
        origin: WebOrigin, topOrigin: WebOrigin? = nil
    ) async throws(ControlError) -> RegistrationResponseJSON {
        let authenticator = try await authenticator(session: session, authenticatorID).authenticator
        return try await metrics.measuring(.create) { () async throws(WebAuthnClientError) in
            try await WebAuthnClient(authenticator: authenticator).create(
                options, origin: origin, topOrigin: topOrigin)
        }
    }

    /// `navigator.credentials.get()` on a virtual authenticator (WebAuthn L3 §5.1.4).
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - authenticatorID: the authenticator.
    ///   - options: the relying party's request options.
    ///   - origin: the caller's origin.
    ///   - topOrigin: the top-level origin, if any.
    ///   - choice: which credential the simulated user picks among several.
    /// - Returns: the authentication response.
    /// - Throws: ``ControlError``: the refusal's `DOMException` name, or `invalid argument`.
    public nonisolated func get(
        session: String, authenticator authenticatorID: String, options: PublicKeyCredentialRequestOptionsJSON,
        origin: WebOrigin, topOrigin: WebOrigin? = nil, choosing choice: AccountChoice = .mostRecent
    ) async throws(ControlError) -> AuthenticationResponseJSON {
        var authenticator = try await authenticator(session: session, authenticatorID).authenticator
        authenticator.accountChoice = choice
        return try await metrics.measuring(.get) { [authenticator] () async throws(WebAuthnClientError) in
            try await WebAuthnClient(authenticator: authenticator).get(options, origin: origin, topOrigin: topOrigin)
        }
    }
}
