import Auth0Passkeys
import PasskeyAuthenticator
import WebAuthn

extension VirtualUser {
    /// Signs the user up with a new passkey: the signup challenge (auth0-passkey-api.md §1), a
    /// passkey from the device, the webauthn grant (§3), and the credentials kept as the session.
    ///
    /// A passkey the tenant refuses (4xx) is deleted from the device again.
    ///
    /// - Parameters:
    ///   - email: `user_profile.email`.
    ///   - name: `user_profile.name`.
    ///   - phone: `user_profile.phone_number`.
    ///   - username: `user_profile.username`.
    ///   - device: the device to make the passkey on; the user's own by default.
    /// - Returns: the user, the credentials and the registration.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/authentication(_:)`` (the tenant refused,
    ///   or did not answer: its `cause` is the `TransportError`), ``PasskeyFlowError/device(_:)``
    ///   (the device refused), ``PasskeyFlowError/session(_:)`` (the session could not be stored)
    ///   or ``PasskeyFlowError/user(_:)``.
    @discardableResult
    public func signUp(
        email: String? = nil, name: String? = nil, phone: String? = nil, username: String? = nil,
        on device: VirtualDevice? = nil
    ) async throws(PasskeyFlowError) -> SignUpResult {
        let device = try self.device(device)
        let challenge = try await loginAuthentication.passkeySignupChallenge(
            email: email, phoneNumber: phone, username: username, name: name, connection: tenant.connection,
            organization: tenant.organization
        ).start(as: PasskeyFlowError.authentication)
        let registration = try await register(challenge.options, rpID: challenge.relyingPartyId, on: device)
        let credentials = try await forgettingRefused(
            registration.rawId.bytes, in: device.store, as: PasskeyFlowError.authentication
        ) { () async throws(AuthenticationError) in
            try await loginAuthentication.login(
                passkey: registration, challenge: challenge, connection: tenant.connection, audience: tenant.audience,
                scope: tenant.scope, organization: tenant.organization
            ).start()
        }
        return SignUpResult(
            user: try await startSession(credentials), credentials: credentials, registration: registration,
            rpID: challenge.relyingPartyId)
    }
}
