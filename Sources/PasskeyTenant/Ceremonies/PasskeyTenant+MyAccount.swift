import FoundationEssentials
import WebAuthn

extension PasskeyTenant {
    /// The ID of the pending method an enrollment challenge creates, as Auth0 names it.
    public static let pendingPasskeyMethodID = "passkey|new"

    /// The scope enrollment needs (auth0-passkey-api.md §5.1).
    static let createMethodsScope = "create:me:authentication_methods"

    /// The user a My Account token belongs to, checked for audience and scope.
    func myAccountUser(_ token: Secret?, scope: String) async throws(TenantError) -> TenantUser {
        let claims = try await authorize(token, audiences: isMyAccount, scope: scope)
        guard let user = try await store.user(id: claims.sub) else {
            throw TenantError(.invalidToken, status: 401, "The token's user does not exist any more.")
        }
        return user
    }

    /// `POST /me/v1/authentication-methods`: opens a passkey enrollment for the token's user
    /// (auth0-passkey-api.md §5.2).
    ///
    /// - Parameters:
    ///   - accessToken: a My Account token with `create:me:authentication_methods`.
    ///   - request: `{"type": "passkey"}`, maybe with the connection and identity.
    /// - Returns: the pending method's ID (for the `Location` header) and the challenge.
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403), `invalid_request` for another
    ///   type, connection or identity, `too_many_attempts` (429) for a locked-out user.
    public func enrollmentChallenge(accessToken: Secret?, _ request: EnrollmentChallengeRequest)
        async throws(TenantError) -> (methodID: String, challenge: CreationChallengeResponse)
    {
        try await enrollmentChallenge(
            for: myAccountUser(accessToken, scope: Self.createMethodsScope), request)
    }

    /// ``enrollmentChallenge(accessToken:_:)`` for a user already authorized.
    func enrollmentChallenge(for user: TenantUser, _ request: EnrollmentChallengeRequest)
        async throws(TenantError) -> (methodID: String, challenge: CreationChallengeResponse)
    {
        try await checkAttempts([.user(user.id)])
        guard request.type == "passkey" else {
            throw .invalidRequest("type: only passkey enrollment is supported")
        }
        let connection = try checkRealm(request.connection)
        if let identity = request.identityUserID, identity != user.identityUserID, identity != user.id {
            throw .invalidRequest("identity_user_id: not an identity of this user")
        }
        let excluded = request.useExcludeCredentials == true ? try await store.credentials(userID: user.id) : nil
        let generated = registrationOptions(for: user, excluding: excluded)
        let secret = try await openSession(
            .enrollment, clientID: clientID, connection: connection, organization: nil, user: user,
            challenge: generated.challenge)
        return (Self.pendingPasskeyMethodID, CreationChallengeResponse(authSession: secret, options: generated.options))
    }

    /// `POST /me/v1/authentication-methods/{id}/verify`: verifies the registration and adds the
    /// passkey to the token's user (auth0-passkey-api.md §5.3).
    ///
    /// - Parameters:
    ///   - accessToken: a My Account token with `create:me:authentication_methods`.
    ///   - methodID: the path's method ID, percent-decoded (`passkey|new`).
    ///   - request: the `auth_session` and the registration response.
    ///   - userAgent: the client's `User-Agent`, reported back as `user_agent`.
    /// - Returns: the new authentication method.
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403), `not_found` (404) for another
    ///   method ID, `invalid_grant` for a session that is unknown, used, expired or another
    ///   user's, or a response that does not verify; `invalid_request` for a registered credential.
    public func verifyEnrollment(
        accessToken: Secret?, methodID: String, _ request: EnrollmentVerifyRequest, userAgent: String?
    ) async throws(TenantError) -> AuthenticationMethod {
        try await verifyEnrollment(
            for: myAccountUser(accessToken, scope: Self.createMethodsScope), methodID: methodID, request,
            userAgent: userAgent)
    }

    /// ``verifyEnrollment(accessToken:methodID:_:userAgent:)`` for a user already authorized.
    func verifyEnrollment(
        for user: TenantUser, methodID: String, _ request: EnrollmentVerifyRequest, userAgent: String?
    ) async throws(TenantError) -> AuthenticationMethod {
        try await checkAttempts([.user(user.id)])
        return try await counting([.user(user.id)]) { () async throws(TenantError) -> AuthenticationMethod in
            guard methodID == Self.pendingPasskeyMethodID else {
                throw TenantError(.notFound, status: 404, "No pending authentication method \(methodID.prefix(100)).")
            }
            let session = try await takeSession(request.authSession)
            guard session.kind == .enrollment, session.user?.id == user.id else {
                throw .invalidGrant("The auth_session was not issued for this user's enrollment.")
            }
            let credential = try verifiedPasskey(
                request.authnResponse, challenge: session.challenge, relyingParty: configuration.relyingParty,
                userID: user.id, userAgent: userAgent)
            try await store.addCredential(credential)
            return AuthenticationMethod(credential, user: user, relyingPartyID: configuration.relyingPartyID)
        }
    }

    /// `GET /me/v1/authentication-methods` (auth0-passkey-api.md §5.5): the user's passkeys.
    ///
    /// - Parameters:
    ///   - accessToken: a My Account token with `read:me:authentication_methods`.
    ///   - type: the `type` filter, if any.
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403).
    public func authenticationMethods(accessToken: Secret?, type: String? = nil) async throws(TenantError)
        -> AuthenticationMethodList
    {
        let user = try await myAccountUser(accessToken, scope: "read:me:authentication_methods")
        guard type == nil || type == "passkey" else { return AuthenticationMethodList(authenticationMethods: []) }
        let methods = try await store.credentials(userID: user.id).map {
            AuthenticationMethod($0, user: user, relyingPartyID: configuration.relyingPartyID)
        }
        return AuthenticationMethodList(authenticationMethods: methods)
    }

    /// `GET /me/v1/authentication-methods/{id}`: one of the user's passkeys.
    ///
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403), `not_found` (404).
    public func authenticationMethod(accessToken: Secret?, id: String) async throws(TenantError)
        -> AuthenticationMethod
    {
        let user = try await myAccountUser(accessToken, scope: "read:me:authentication_methods")
        guard let credential = try await store.credentials(userID: user.id).first(where: { $0.methodID == id }) else {
            throw TenantError(.notFound, status: 404, "No authentication method \(id.prefix(100)).")
        }
        return AuthenticationMethod(credential, user: user, relyingPartyID: configuration.relyingPartyID)
    }

    /// `DELETE /me/v1/authentication-methods/{id}`: removes one of the user's passkeys.
    ///
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403), `not_found` (404).
    public func deleteAuthenticationMethod(accessToken: Secret?, id: String) async throws(TenantError) {
        let user = try await myAccountUser(accessToken, scope: "delete:me:authentication_methods")
        guard try await store.deleteCredential(methodID: id, userID: user.id) else {
            throw TenantError(.notFound, status: 404, "No authentication method \(id.prefix(100)).")
        }
    }

    /// `PATCH /me/v1/authentication-methods/{id}`: names one of the user's passkeys
    /// (auth0-passkey-api.md §19.1).
    ///
    /// **[local]** The name is stored and returned on passkeys; `preferred_authentication_method`
    /// is for phone methods, so a passkey refuses it.
    ///
    /// - Parameters:
    ///   - accessToken: a My Account token with `update:me:authentication_methods`.
    ///   - id: the path's method ID, percent-decoded.
    ///   - update: the body.
    /// - Returns: the renamed method.
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403), `invalid_request` (400) for
    ///   `preferred_authentication_method`, a missing name or one outside 1–128 characters,
    ///   `not_found` (404) for a method the user does not have.
    public func updateAuthenticationMethod(accessToken: Secret?, id: String, _ update: AuthenticationMethodUpdate)
        async throws(TenantError) -> AuthenticationMethod
    {
        let user = try await myAccountUser(accessToken, scope: Self.updateMethodsScope)
        return try await updateAuthenticationMethod(for: user, id: id, update)
    }

    /// ``updateAuthenticationMethod(accessToken:id:_:)`` for a user already authorized.
    func updateAuthenticationMethod(for user: TenantUser, id: String, _ update: AuthenticationMethodUpdate)
        async throws(TenantError) -> AuthenticationMethod
    {
        guard update.preferredAuthenticationMethod == nil else {
            throw .invalidRequest("preferred_authentication_method: only phone methods have one")
        }
        guard let name = update.name else { throw .invalidRequest("name: required") }
        guard (1...128).contains(name.count) else { throw .invalidRequest("name: 1 to 128 characters") }
        guard let credential = try await store.renameCredential(methodID: id, userID: user.id, name: name) else {
            throw TenantError(.notFound, status: 404, "No authentication method \(id.prefix(100)).")
        }
        return AuthenticationMethod(credential, user: user, relyingPartyID: configuration.relyingPartyID)
    }

    /// The scope renaming needs (auth0-passkey-api.md §19.1).
    static let updateMethodsScope = "update:me:authentication_methods"

    /// `GET /me/v1/factors`: the factors this tenant lets the user enroll (auth0-passkey-api.md
    /// §19.2) — passkeys only, as a first factor.
    ///
    /// - Parameter accessToken: a My Account token with `read:me:factors`.
    /// - Throws: `invalid_token` (401), `insufficient_scope` (403).
    public func factors(accessToken: Secret?) async throws(TenantError) -> FactorList {
        _ = try await myAccountUser(accessToken, scope: "read:me:factors")
        return FactorList(factors: [FactorList.Factor(type: "passkey", usage: ["primary"])])
    }
}
