public import Auth0Passkeys
public import PasskeyAuthenticator
public import WebAuthn

extension EmbeddedAuthentication {
    /// Logs in at a passkey provider's authenticate URL with any authenticator, as an embedded
    /// SDK's `authenticate(url:id:)` does: the options fetched, signed with a discoverable
    /// passkey of the provider's RP ID (WebAuthn L3 §5.1.4), the assertion posted; returns the
    /// URL that resumes the flow.
    ///
    /// The assertion's origin is a native app's, `https://<rpId>` (DESIGN.md: Native origin),
    /// unless `origin` says otherwise; the provider accepts it as it accepts native passkeys.
    ///
    /// ```swift
    /// if let target = EmbeddedAuthentication.authenticateURL(invoking: url, invokeURL: invokeURL) {
    ///     let next = try await EmbeddedAuthentication().authenticate(url: target, passkey: authenticator)
    ///     // open `next` in the same cookie store as the login that reached the invoke URL
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - url: the authenticate URL (`EmbeddedAuthentication/isAuthenticateURL(_:)`).
    ///   - passkey: the authenticator whose passkey answers (CTAP 2.1 §6.2 semantics).
    ///   - origin: the client data's origin; `nil` for `https://<rpId>`.
    /// - Returns: the redirect URL (`…/embedded/continue?request=…`), a one-time secret.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/authentication(_:)`` when the provider
    ///   refuses (`invalid_request`, `invalid_grant`) or does not answer,
    ///   ``PasskeyFlowError/device(_:)`` when the authenticator refuses (`NotAllowedError`: no
    ///   passkey for the RP ID, or the user cancelled; then `cancel(url:)` tells the provider).
    public func authenticate(url: String, passkey: any Authenticator, origin: WebOrigin? = nil)
        async throws(PasskeyFlowError) -> String
    {
        try await authenticate(url: url, device: VirtualDevice(authenticator: passkey, origin: origin))
    }

    /// Logs in at a passkey provider's authenticate URL with a passkey of `device`, as
    /// `authenticate(url:passkey:origin:)` with the device's authenticator and origin.
    ///
    /// - Parameters:
    ///   - url: the authenticate URL.
    ///   - device: the device whose passkey answers.
    ///   - choice: which passkey the simulated user picks among several; the most recent by default.
    /// - Returns: the redirect URL that resumes the flow.
    /// - Throws: ``PasskeyFlowError``, as `authenticate(url:passkey:origin:)`.
    public func authenticate(url: String, device: VirtualDevice, choosing choice: AccountChoice = .mostRecent)
        async throws(PasskeyFlowError) -> String
    {
        let options: PublicKeyCredentialRequestOptionsJSON
        do {
            options = try await self.options(url: url)
        } catch {
            throw .authentication(error)
        }
        let assertion: AuthenticationResponseJSON
        do {
            // isAuthenticateURL, checked by options(url:), made sure the URL has a host.
            assertion = try await device.get(options, rpID: options.rpId ?? PageURL(url)?.host ?? "", choosing: choice)
        } catch {
            throw .device(error)
        }
        do {
            return try await complete(url: url, credential: assertion)
        } catch {
            throw .authentication(error)
        }
    }

    /// What an app does when the provider sends it to its invoke URL: logs in with a passkey of
    /// `device` (`authenticate(url:device:choosing:)`), or, when the device refuses
    /// (`NotAllowedError`: no passkey, or the user cancelled), cancels the login there
    /// (`EmbeddedAuthentication/cancel(url:)`), so that the flow ends at the application with
    /// `access_denied` instead of stopping halfway. Either way, the URL to open next in the same
    /// cookie store.
    ///
    /// - Parameters:
    ///   - url: the authenticate URL the invoke URL was given.
    ///   - device: the device whose passkey answers.
    ///   - choice: which passkey the simulated user picks among several.
    /// - Returns: the redirect URL: the continue URL, or the provider client's error redirect.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/authentication(_:)`` when the provider
    ///   refuses or does not answer; ``PasskeyFlowError/device(_:)`` for a refusal other than
    ///   `NotAllowedError`.
    public func invoke(url: String, device: VirtualDevice, choosing choice: AccountChoice = .mostRecent)
        async throws(PasskeyFlowError) -> String
    {
        do {
            return try await authenticate(url: url, device: device, choosing: choice)
        } catch .device(let refusal) where refusal.name == .notAllowed {
            do {
                return try await cancel(url: url)
            } catch {
                throw .authentication(error)
            }
        }
    }
}
