import Auth0Passkeys
public import PasskeyAuthenticator
import PasskeyKit
import WebAuthn

extension ControlService {
    /// Adds a virtual user of the tenant `description` names, whose passkeys live in the
    /// authenticator `authenticatorID`.
    ///
    /// - Throws: ``ControlError`` `invalid session id` or `invalid argument`.
    public func addUser(
        session: String, tenant description: TenantDescription, authenticatorID: String, origin: String? = nil
    ) throws(ControlError) -> String {
        let webOrigin: WebOrigin?
        do {
            webOrigin = try origin.map { try WebOrigin($0) }
        } catch {
            throw .invalidArgument("origin: \(error)")
        }
        return try addUser(
            session: session, tenant: description.tenant(transport: transport), authenticatorID: authenticatorID,
            origin: webOrigin)
    }

    /// Signs the user up with a new passkey (Auth0's native passkey signup).
    ///
    /// - Throws: ``ControlError``: the tenant's error code (400, or 502 when it did not answer),
    ///   the device's `DOMException` name, or `invalid argument`.
    public nonisolated func signUp(
        session: String, user id: String, email: String?, name: String?, username: String?, phone: String?
    ) async throws(ControlError) -> SessionResult {
        let user = try await user(session: session, id)
        return try await metrics.measuring(.signup) {
            let result = try await user.signUp(email: email, name: name, phone: phone, username: username)
            return SessionResult(
                userId: result.user.sub, email: result.user.email, name: result.user.name,
                credentialId: Base64URL(result.credentialID), rpId: result.rpID)
        }
    }

    /// Logs the user in with a passkey (Auth0's native passkey login).
    ///
    /// - Throws: ``ControlError`` as ``signUp(session:user:email:name:username:phone:)``.
    public nonisolated func logIn(session: String, user id: String, choosing choice: AccountChoice = .mostRecent)
        async throws(ControlError) -> SessionResult
    {
        let user = try await user(session: session, id)
        return try await metrics.measuring(.login) {
            let result = try await user.logIn(choosing: choice)
            return SessionResult(
                userId: result.user.sub, email: result.user.email, name: result.user.name,
                credentialId: Base64URL(result.credentialID), rpId: result.rpID)
        }
    }

    /// Enrolls one more passkey through My Account, on the authenticator `authenticatorID` (a
    /// second device) or the user's own.
    ///
    /// - Throws: ``ControlError`` as ``signUp(session:user:email:name:username:phone:)``.
    public nonisolated func enroll(session: String, user id: String, authenticator authenticatorID: String? = nil)
        async throws(ControlError) -> EnrollmentResultValue
    {
        let user = try await user(session: session, id)
        var device = user.device
        if let authenticatorID, let origin = device.map({ $0.origin }) {
            let other = try await authenticator(session: session, authenticatorID).authenticator
            device = VirtualDevice(authenticator: other, origin: origin)
        }
        return try await metrics.measuring(.enroll) {
            guard let device else { throw VirtualUserError(.noDevice, "the user has no device") }
            let result = try await user.enroll(from: device)
            return EnrollmentResultValue(methodId: result.method.id, credentialId: Base64URL(result.credentialID))
        }
    }

    /// An access token of the user's session, renewed when needed, or for `audience`.
    ///
    /// - Throws: ``ControlError`` (`no_credentials` without a session).
    public nonisolated func token(session: String, user id: String, audience: String?, scope: String?)
        async throws(ControlError) -> TokenResult
    {
        let user = try await user(session: session, id)
        return try await metrics.measuring(.token) {
            if let audience {
                let api = try await user.apiCredentials(audience: audience, scope: scope)
                return TokenResult(
                    accessToken: api.accessToken, tokenType: api.tokenType, expiresAt: api.expiresAt, scope: api.scope)
            }
            let credentials = try await user.credentials(withScope: scope)
            return TokenResult(
                accessToken: credentials.accessToken, tokenType: credentials.tokenType,
                expiresAt: credentials.expiresAt, scope: credentials.scope)
        }
    }

    /// Calls a protected API with the user's access token.
    ///
    /// - Throws: ``ControlError``; the API's own status is in the result, whatever it is.
    public nonisolated func callAPI(
        session: String, user id: String, method: String, url: String, audience: String?, scope: String?,
        body: [UInt8]?
    ) async throws(ControlError) -> APIResult {
        guard let method = HTTPRequest.Method(rawValue: method.uppercased()) else {
            throw .invalidArgument("method must be GET, POST, PATCH or DELETE, not \(method)")
        }
        let user = try await user(session: session, id)
        return try await metrics.measuring(.api) {
            let response = try await user.callAPI(method, url, audience: audience, scope: scope, body: body)
            return APIResult(status: response.status, body: String(decoding: response.body, as: UTF8.self))
        }
    }

    /// Logs the user out, revoking the refresh token when `revoke`.
    ///
    /// - Throws: ``ControlError``.
    public nonisolated func logOut(session: String, user id: String, revoke: Bool) async throws(ControlError)
        -> LogoutResultValue
    {
        let user = try await user(session: session, id)
        return try await metrics.measuring(.logout) { () async throws(CredentialsManagerError) in
            let result = try await user.logOut(revoke: revoke)
            return LogoutResultValue(hadSession: result.hadSession, revoked: result.revoked)
        }
    }
}
