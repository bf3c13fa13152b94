import FoundationEssentials
import WebAuthn

extension MyAccountAPI {
    /// `POST /me/v1/authentication-methods`: opens a passkey enrollment for the token's user
    /// (auth0-passkey-api.md §5.2).
    func enrollmentChallenge(accessToken: Secret?, _ request: EnrollmentChallengeRequest)
        async throws(TenantError) -> (methodID: String, challenge: CreationChallengeResponse)
    {
        try await enrollmentChallenge(
            for: myAccountUser(accessToken, scope: Self.createMethodsScope), request)
    }

    /// ``enrollmentChallenge(accessToken:_:)`` for a user already authorized.
    func enrollmentChallenge(for user: TenantUser, _ request: EnrollmentChallengeRequest)
        async throws(TenantError) -> (methodID: String, challenge: CreationChallengeResponse)
    {
        try await services.checkAttempts([.user(user.id)])
        guard request.type == "passkey" else {
            throw .invalidRequest("type: only passkey enrollment is supported")
        }
        let connection = try services.checkRealm(request.connection)
        if let identity = request.identityUserID, identity != user.identityUserID, identity != user.id {
            throw .invalidRequest("identity_user_id: not an identity of this user")
        }
        let excluded = request.useExcludeCredentials == true ? try await store.credentials(userID: user.id) : nil
        let generated = services.registrationOptions(for: user, excluding: excluded)
        let secret = try await services.openSession(
            .enrollment, clientID: clientID, connection: connection, organization: nil, user: user,
            challenge: generated.challenge)
        return (
            PasskeyTenant.pendingPasskeyMethodID,
            CreationChallengeResponse(authSession: secret, options: generated.options)
        )
    }

    /// `POST /me/v1/authentication-methods/{id}/verify`: verifies the registration and adds the
    /// passkey to the token's user (auth0-passkey-api.md §5.3).
    func verifyEnrollment(
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
        try await services.checkAttempts([.user(user.id)])
        return try await services.counting([.user(user.id)]) { () async throws(TenantError) -> AuthenticationMethod in
            guard methodID == PasskeyTenant.pendingPasskeyMethodID else {
                throw TenantError(.notFound, status: 404, "No pending authentication method \(methodID.prefix(100)).")
            }
            let session = try await services.takeSession(request.authSession)
            guard session.kind == .enrollment, session.user?.id == user.id else {
                throw .invalidGrant("The auth_session was not issued for this user's enrollment.")
            }
            let credential = try services.verifiedPasskey(
                request.authnResponse, challenge: session.challenge, relyingParty: configuration.relyingParty,
                userID: user.id, userAgent: userAgent)
            try await store.addCredential(credential)
            return AuthenticationMethod(credential, user: user, relyingPartyID: configuration.relyingPartyID)
        }
    }

    /// `GET /me/v1/authentication-methods` (auth0-passkey-api.md §5.5): the user's passkeys.
    func authenticationMethods(accessToken: Secret?, type: String? = nil) async throws(TenantError)
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
    func authenticationMethod(accessToken: Secret?, id: String) async throws(TenantError)
        -> AuthenticationMethod
    {
        let user = try await myAccountUser(accessToken, scope: "read:me:authentication_methods")
        guard let credential = try await store.credentials(userID: user.id).first(where: { $0.methodID == id }) else {
            throw TenantError(.notFound, status: 404, "No authentication method \(id.prefix(100)).")
        }
        return AuthenticationMethod(credential, user: user, relyingPartyID: configuration.relyingPartyID)
    }

    /// `DELETE /me/v1/authentication-methods/{id}`: removes one of the user's passkeys.
    func deleteAuthenticationMethod(accessToken: Secret?, id: String) async throws(TenantError) {
        let user = try await myAccountUser(accessToken, scope: "delete:me:authentication_methods")
        guard try await store.deleteCredential(methodID: id, userID: user.id) else {
            throw TenantError(.notFound, status: 404, "No authentication method \(id.prefix(100)).")
        }
    }

    /// `PATCH /me/v1/authentication-methods/{id}`: names one of the user's passkeys
    /// (auth0-passkey-api.md §19.1).
    func updateAuthenticationMethod(accessToken: Secret?, id: String, _ update: AuthenticationMethodUpdate)
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

    /// `GET /me/v1/factors`: the factors this tenant lets the user enroll (auth0-passkey-api.md
    /// §19.2) — passkeys only, as a first factor.
    func factors(accessToken: Secret?) async throws(TenantError) -> FactorList {
        _ = try await myAccountUser(accessToken, scope: "read:me:factors")
        return FactorList(factors: [FactorList.Factor(type: "passkey", usage: ["primary"])])
    }
}
