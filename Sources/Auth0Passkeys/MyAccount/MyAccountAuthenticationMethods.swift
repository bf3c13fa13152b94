public import WebAuthn

/// The authentication-methods calls of My Account (spec §5.2–§5.5, §19), reached through
/// ``MyAccount/authenticationMethods``.
public struct MyAccountAuthenticationMethods: Sendable {
    let account: MyAccount

    /// Starts a passkey enrollment: `POST /me/v1/authentication-methods` with
    /// `{"type": "passkey"}` (spec §5.2). Needs `create:me:authentication_methods`.
    ///
    /// - Parameters:
    ///   - userIdentityId: the identity to enroll for (linked accounts), without the
    ///     `auth0|` prefix.
    ///   - connection: the database connection (`connection`, not `realm`).
    /// - Returns: the request; it decodes a ``PasskeyEnrollmentChallenge`` (the answer must have
    ///   a `Location` header).
    public func passkeyEnrollmentChallenge(
        userIdentityId: String? = nil, connection: String? = nil
    ) -> Request<PasskeyEnrollmentChallenge, MyAccountError> {
        let body = EnrollmentChallengeBody(userIdentityId: userIdentityId, connection: connection)
        return account.request(
            .post, "/authentication-methods", body: JSONObject.members(of: body), retryable: true,
            PasskeyEnrollmentChallenge.handle)
    }

    /// Completes a passkey enrollment: `POST /me/v1/authentication-methods/{id}/verify` with the
    /// session and the new passkey (spec §5.3). Never retried: the session is single-use.
    ///
    /// The method ID is percent-decoded then encoded again as one path segment, so
    /// `passkey%7Cnew` and `passkey|new` both become `passkey%7Cnew` on the wire.
    ///
    /// - Parameters:
    ///   - passkey: the passkey the authenticator created for `challenge`.
    ///   - challenge: the enrollment challenge.
    /// - Returns: the request; it decodes the ``PasskeyAuthenticationMethod`` (201 Created).
    public func enroll(
        passkey: some NewPasskey, challenge: PasskeyEnrollmentChallenge
    ) -> Request<PasskeyAuthenticationMethod, MyAccountError> {
        let body = EnrollmentVerifyBody(
            authSession: challenge.authenticationSession, authnResponse: AuthnResponseBody(passkey))
        return account.request(
            .post, "/authentication-methods/\(segment(challenge.authenticationMethodId))/verify",
            body: JSONObject.members(of: body), retryable: false,
            ResponseHandling.json(PasskeyAuthenticationMethod.self, MyAccountError.self))
    }

    /// Lists the user's authentication methods: `GET /me/v1/authentication-methods`
    /// (spec §5.5). Needs `read:me:authentication_methods`.
    ///
    /// - Parameter type: only methods of this type, such as `passkey`.
    /// - Returns: the request; it decodes the methods.
    public func getAuthenticationMethods(type: String? = nil) -> Request<[AuthenticationMethod], MyAccountError> {
        let query = type.map { "?type=\(PercentEncoding.encode($0))" } ?? ""
        let list = ResponseHandling.json(AuthenticationMethodList.self, MyAccountError.self)
        return account.request(.get, "/authentication-methods" + query, retryable: true) {
            response throws(MyAccountError) in try list(response).methods
        }
    }

    /// One authentication method: `GET /me/v1/authentication-methods/{id}` (spec §5.5).
    ///
    /// - Parameter id: the method's ID.
    /// - Returns: the request; it decodes the method.
    public func getAuthenticationMethod(by id: String) -> Request<AuthenticationMethod, MyAccountError> {
        account.request(
            .get, "/authentication-methods/\(segment(id))", retryable: true,
            ResponseHandling.json(AuthenticationMethod.self, MyAccountError.self))
    }

    /// Deletes an authentication method: `DELETE /me/v1/authentication-methods/{id}`
    /// (spec §5.5). Needs `delete:me:authentication_methods`. Deleting is idempotent, so it is
    /// retried after a retryable failure.
    ///
    /// - Parameter id: the method's ID.
    /// - Returns: the request; any success answers.
    public func deleteAuthenticationMethod(by id: String) -> Request<Void, MyAccountError> {
        account.request(
            .delete, "/authentication-methods/\(segment(id))", retryable: true,
            ResponseHandling.none(MyAccountError.self))
    }

    /// Names an authentication method: `PATCH /me/v1/authentication-methods/{id}` (spec §19.1).
    /// Needs `update:me:authentication_methods`. Setting the same values twice changes nothing,
    /// so it is retried after a retryable failure.
    ///
    /// Only the given keys are sent, e.g. `{"name":"Work laptop"}`; the ID is one path segment,
    /// its `|` percent-encoded, as for ``getAuthenticationMethod(by:)``.
    ///
    /// ```swift
    /// let method = try await myAccount.authenticationMethods
    ///     .update(id: "passkey|dev_7Hq2Nw0cYtR4", name: "Work laptop").start()
    /// ```
    ///
    /// - Parameters:
    ///   - id: the method's ID.
    ///   - name: the new name.
    ///   - preferredAuthenticationMethod: `sms` or `voice`, for phone methods only.
    /// - Returns: the request; it decodes the updated method.
    public func update(
        id: String, name: String? = nil, preferredAuthenticationMethod: String? = nil
    ) -> Request<AuthenticationMethod, MyAccountError> {
        let body = MethodUpdateBody(name: name, preferredAuthenticationMethod: preferredAuthenticationMethod)
        return account.request(
            .patch, "/authentication-methods/\(segment(id))", body: JSONObject.members(of: body), retryable: true,
            ResponseHandling.json(AuthenticationMethod.self, MyAccountError.self))
    }

    /// The factors the tenant lets the user enroll: `GET /me/v1/factors` (spec §19.2). Needs
    /// `read:me:factors`.
    ///
    /// - Returns: the request; it decodes the factors, maybe none.
    public func factors() -> Request<[Factor], MyAccountError> {
        let list = ResponseHandling.json(FactorList.self, MyAccountError.self)
        return account.request(.get, "/factors", retryable: true) { response throws(MyAccountError) in
            try list(response).factors
        }
    }

    /// A method ID as one path segment: percent-decoded, then encoded again (spec §5.3).
    private func segment(_ id: String) -> String {
        PercentEncoding.encode(PercentEncoding.decode(id))
    }
}

/// `POST /me/v1/authentication-methods` (spec §5.2).
struct EnrollmentChallengeBody: Encodable {
    let type = "passkey"
    let userIdentityId: String?
    let connection: String?

    enum CodingKeys: String, CodingKey {
        case type, connection
        case userIdentityId = "identity_user_id"
    }
}

/// `PATCH /me/v1/authentication-methods/{id}` (spec §19.1): nil members are left out.
struct MethodUpdateBody: Encodable {
    let name: String?
    let preferredAuthenticationMethod: String?

    enum CodingKeys: String, CodingKey {
        case name
        case preferredAuthenticationMethod = "preferred_authentication_method"
    }
}

/// `POST /me/v1/authentication-methods/{id}/verify` (spec §5.3).
struct EnrollmentVerifyBody: Encodable {
    let authSession: String
    let authnResponse: AuthnResponseBody

    enum CodingKeys: String, CodingKey {
        case authSession = "auth_session"
        case authnResponse = "authn_response"
    }
}
