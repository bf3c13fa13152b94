import Auth0Passkeys
public import PasskeyAuthenticator
import WebAuthn

extension VirtualUser {
    /// Logs in with a discoverable passkey: the login challenge (auth0-passkey-api.md §2), an
    /// assertion by the passkey `choice` picks on the device, the webauthn grant (§3), and the
    /// credentials kept as the session.
    ///
    /// - Parameters:
    ///   - choice: which of several passkeys the simulated user picks; the most recent by default.
    ///   - device: the device to sign on; the user's own by default.
    /// - Returns: the user, the credentials, the assertion and the passkeys chosen among.
    /// - Throws: as ``signUp(email:name:phone:username:on:)``.
    @discardableResult
    public func logIn(choosing choice: AccountChoice = .mostRecent, on device: VirtualDevice? = nil)
        async throws(PasskeyFlowError)
        -> LogInResult
    {
        let device = try self.device(device)
        let challenge = try await loginAuthentication.passkeyLoginChallenge(
            connection: tenant.connection, organization: tenant.organization
        ).start(as: PasskeyFlowError.authentication)
        let rpID = challenge.relyingPartyId
        let assertion: AuthenticationResponseJSON
        do {
            assertion = try await device.get(challenge.options, rpID: rpID, choosing: choice)
        } catch {
            throw .device(error)
        }
        let passkey: LoginPasskeyResponse
        do {
            passkey = try LoginPasskeyResponse(assertion)
        } catch {
            throw .user(VirtualUserError(.noUserHandle, "the passkey returned no user handle"))
        }
        let credentials = try await loginAuthentication.login(
            passkey: passkey, challenge: challenge, connection: tenant.connection, audience: tenant.audience,
            scope: tenant.scope, organization: tenant.organization
        ).start(as: PasskeyFlowError.authentication)
        let user = try await startSession(credentials)
        let candidates = (try? await device.store?.summaries(rpID: rpID)) ?? []
        return LogInResult(
            user: user, credentials: credentials, assertion: assertion, rpID: rpID, candidates: candidates)
    }
}
