public import Auth0Passkeys
import FoundationEssentials
import PasskeyAuthenticator
import WebAuthn

extension VirtualUser {
    /// Enrolls another passkey for the signed-in user through My Account (auth0-passkey-api.md
    /// §5): a My Account token from the session's refresh token, the enrollment challenge, a new
    /// passkey from `device`, and its verification. A passkey the tenant refuses is deleted again.
    ///
    /// An authenticator keeps one discoverable passkey per account and RP ID: a new one replaces
    /// the old (CTAP 2.1 §6.1.2 step 17), which the tenant would still list. So a device that
    /// holds a passkey of this user is refused before anything is made: enroll from another one.
    /// (A device without a readable store is not checked: its authenticator answers for itself.)
    ///
    /// - Parameter device: the device to make the new passkey on.
    /// - Returns: the tenant's authentication method and the registration.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/user(_:)`` with `alreadyEnrolledHere`,
    ///   ``PasskeyFlowError/myAccount(_:)``, ``PasskeyFlowError/session(_:)`` (no session to take
    ///   a token from), ``PasskeyFlowError/device(_:)``.
    @discardableResult
    public func enroll(from device: VirtualDevice) async throws(PasskeyFlowError) -> EnrollmentResult {
        do {
            _ = try await storedUser()
        } catch {
            throw .session(error)
        }
        let account = try await myAccount(scope: Self.enrollScope)
        let challenge = try await account.authenticationMethods.passkeyEnrollmentChallenge(
            connection: tenant.connection
        ).start(as: PasskeyFlowError.myAccount)
        let held: [CredentialSummary]
        do {
            held = try await device.store?.summaries(rpID: challenge.relyingPartyId) ?? []
        } catch {
            throw .store(error)
        }
        if held.contains(where: { $0.userHandle == Array(challenge.userId) && $0.discoverable }) {
            throw .user(
                VirtualUserError(
                    .alreadyEnrolledHere,
                    "this store already holds a passkey of the user for \(challenge.relyingPartyId)"))
        }
        let registration = try await register(challenge.options, rpID: challenge.relyingPartyId, on: device)
        let method = try await forgettingRefused(
            registration.rawId.bytes, in: device.store, as: PasskeyFlowError.myAccount
        ) { () async throws(MyAccountError) in
            try await account.authenticationMethods.enroll(passkey: registration, challenge: challenge).start()
        }
        return EnrollmentResult(method: method, registration: registration)
    }

    /// The user's authentication methods, through My Account (auth0-passkey-api.md §5.5).
    ///
    /// - Parameter type: only methods of this type (`passkey`), or all.
    /// - Returns: the methods.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/myAccount(_:)``,
    ///   ``PasskeyFlowError/session(_:)`` or ``PasskeyFlowError/user(_:)``.
    public func authenticationMethods(type: String? = nil) async throws(PasskeyFlowError) -> [AuthenticationMethod] {
        let account = try await myAccount(scope: Self.readMethodsScope)
        return try await account.authenticationMethods.getAuthenticationMethods(type: type).start(
            as: PasskeyFlowError.myAccount)
    }

    /// Names one of the user's authentication methods, through My Account
    /// (auth0-passkey-api.md §19.1); the token carries `update:me:authentication_methods`.
    ///
    /// - Parameters:
    ///   - id: the method's ID, such as `passkey|dev_7Hq2Nw0cYtR4`.
    ///   - name: the new name, 1 to 128 characters.
    /// - Returns: the renamed method.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/myAccount(_:)`` (404 for a method the
    ///   user does not have, 400 for a bad name), ``PasskeyFlowError/session(_:)`` or
    ///   ``PasskeyFlowError/user(_:)``.
    public func renameAuthenticationMethod(id: String, name: String) async throws(PasskeyFlowError)
        -> AuthenticationMethod
    {
        let account = try await myAccount(scope: Self.updateMethodsScope)
        return try await account.authenticationMethods.update(id: id, name: name).start(as: PasskeyFlowError.myAccount)
    }

    /// Deletes one of the user's authentication methods, through My Account
    /// (auth0-passkey-api.md §5.5); the token carries `delete:me:authentication_methods`.
    ///
    /// The passkey stays on the device that holds it; the tenant no longer accepts it.
    ///
    /// - Parameter id: the method's ID.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/myAccount(_:)`` (404 for a method the
    ///   user does not have), ``PasskeyFlowError/session(_:)`` or ``PasskeyFlowError/user(_:)``.
    public func deleteAuthenticationMethod(id: String) async throws(PasskeyFlowError) {
        let account = try await myAccount(scope: Self.deleteMethodsScope)
        try await account.authenticationMethods.deleteAuthenticationMethod(by: id).start(as: PasskeyFlowError.myAccount)
    }

    /// The factors the tenant lets the user enroll, through My Account (auth0-passkey-api.md
    /// §19.2); the token carries `read:me:factors`.
    ///
    /// - Returns: the factors, maybe none.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/myAccount(_:)``,
    ///   ``PasskeyFlowError/session(_:)`` or ``PasskeyFlowError/user(_:)``.
    public func factors() async throws(PasskeyFlowError) -> [Factor] {
        let account = try await myAccount(scope: Self.readFactorsScope)
        return try await account.authenticationMethods.factors().start(as: PasskeyFlowError.myAccount)
    }

    /// A My Account client with a token for `scope`, from the session's refresh token
    /// (auth0-passkey-api.md §5.1, §9); the audience is `https://DOMAIN/me/`.
    ///
    /// - Parameter scope: the My Account scopes the calls need.
    /// - Returns: the client.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/session(_:)``, or
    ///   ``PasskeyFlowError/user(_:)`` with `noDomain`.
    public func myAccount(scope: String) async throws(PasskeyFlowError) -> MyAccount {
        let audience = "https://\(try await domain())/me/"
        let token: APICredentials
        do {
            token = try await apiCredentials(audience: audience, scope: scope)
        } catch {
            throw .session(error)
        }
        do {
            return try MyAccount(
                token: token.accessToken, baseURL: tenant.baseURL, tokenType: token.tokenType,
                transport: tenant.transport, logger: tenant.logger
            ).useDPoP(credentialsManager.dpop)
        } catch {
            throw .myAccount(error)
        }
    }

    /// The tenant's domain: the configured one, else the host of the session's ID-token issuer
    /// (`iss` is `https://DOMAIN/`, OpenID Connect Core §2).
    func domain() async throws(PasskeyFlowError) -> String {
        if let domain = tenant.domain {
            return domain
        }
        let user: UserInfo
        do {
            user = try await storedUser()
        } catch {
            throw .session(error)
        }
        guard let issuer = user.customClaims["iss"]?.stringValue, let url = URL(string: issuer), let host = url.host
        else {
            throw .user(VirtualUserError(.noDomain, "the session's ID token names no issuer"))
        }
        return url.port.map { "\(host):\($0)" } ?? host
    }
}
