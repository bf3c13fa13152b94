import FoundationEssentials
import WebAuthn

/// The steps a browser login takes on the tenant whatever asks for it, the login page's API or
/// the embedded mode's **[local]**: a transaction's pending ceremony (its challenge, spent by the
/// first answer), and the login session and authorization response a verified ceremony ends in.
extension WebAuthAPI {
    /// The live transaction of `kind` under `digest`.
    ///
    /// - Throws: `invalid_request` when there is none: unknown, expired, or another API's.
    func liveTransaction(_ digest: [UInt8], kind: LoginTransaction.Kind?) async throws(TenantError)
        -> LoginTransaction
    {
        guard
            let transaction = try await store.peek(
                LoginTransaction.self, key: .digest(digest), at: clock.now(), expiring: true),
            transaction.kind == kind
        else {
            throw Self.unknownTransaction
        }
        return transaction
    }

    /// Makes `transaction`'s pending ceremony a discoverable login (WebAuthn L3 §5.1.10; no
    /// `allowCredentials`, as the native login, auth0-passkey-api.md §2), replacing any other.
    ///
    /// - Returns: the options for `navigator.credentials.get`.
    func pendLogin(_ transaction: inout LoginTransaction) -> PublicKeyCredentialRequestOptionsJSON {
        let generated = configuration.relyingParty.generateAuthenticationOptions(timeout: configuration.sessionLifetime)
        (transaction.mode, transaction.challenge, transaction.user) = (.login, generated.challenge, nil)
        return generated.options
    }

    /// Stores `transaction`, its pending ceremony set, under `digest`.
    ///
    /// - Throws: `invalid_request` when the transaction is gone since it was read (answered, or
    ///   expired): the options would have no challenge to meet.
    func storePending(_ transaction: LoginTransaction, digest: [UInt8]) async throws(TenantError) {
        guard
            try await store.update(LoginTransaction.self, key: .digest(digest), at: clock.now(), { $0 = transaction })
                != nil
        else {
            throw Self.unknownTransaction
        }
    }

    /// Takes the pending ceremony of the transaction of `kind` under `digest`: cleared as it is read,
    /// so a challenge is answered at most once, whatever the answer; the transaction stays for
    /// another try.
    ///
    /// - Returns: the transaction as it was, its ceremony and challenge.
    /// - Throws: `invalid_request` for no such transaction, or no pending ceremony.
    func takeCeremony(_ digest: [UInt8], kind: LoginTransaction.Kind?) async throws(TenantError)
        -> (transaction: LoginTransaction, mode: LoginTransaction.Mode, challenge: [UInt8])
    {
        let pending = try await store.update(LoginTransaction.self, key: .digest(digest), at: clock.now()) {
            if $0.kind == kind { ($0.mode, $0.challenge, $0.user) = (nil, nil, nil) }
        }
        guard let transaction = pending, transaction.kind == kind else {
            throw Self.unknownTransaction
        }
        guard let mode = transaction.mode, let challenge = transaction.challenge else {
            throw .invalidRequest("No passkey ceremony is pending; ask for options first.")
        }
        return (transaction, mode, challenge)
    }

    /// Opens a login session for `userID` (the `passkey_session` cookie: 32 random bytes, stored
    /// as their SHA-256 digest): the login page's ceremony, the embedded mode's and an upstream
    /// connection's login all end in one. Then answers `request`: a code (``issueCode(for:userID:authTime:sessionID:)``),
    /// or `access_denied` with `refusal` when the user was not let in (auth0-passkey-api.md §17).
    ///
    /// - Parameters:
    ///   - userID: who performed the ceremony.
    ///   - authTime: when.
    ///   - request: the `/authorize` request answered.
    ///   - refusal: why the user is refused, if they are.
    ///   - secure: whether the tenant serves TLS (the cookie's `Secure`).
    /// - Returns: the authorization response and the `Set-Cookie` value.
    func openSession(
        userID: String, authTime: Date, request: AuthorizationRequest, refusal: TenantError?, secure: Bool
    ) async throws(TenantError) -> (response: AuthorizationResponse, cookie: String) {
        // A linked (secondary) user's session is its primary's, whichever way it logged in.
        let userID = try await services.primaryUserID(of: userID)
        let now = clock.now()
        let session = Secret.random()
        let loginSession = LoginSession(
            userID: userID, authTime: authTime,
            expiresAt: now.addingTimeInterval(configuration.loginSessionLifetime.seconds))
        try await store.insert(loginSession, key: .digest(session.digest))
        let response =
            if let refusal {
                request.response([("error", "access_denied"), ("error_description", refusal.detail)])
            } else {
                try await issueCode(for: request, userID: userID, authTime: authTime, sessionID: loginSession.sessionID)
            }
        let cookie = BrowserResponse.cookie(
            Self.sessionCookie, session.text, path: "/", secure: secure, crossSite: true,
            maxAge: Int(configuration.loginSessionLifetime.seconds))
        return (response, cookie)
    }

    static let unknownTransaction = TenantError.invalidRequest(
        "The login transaction is unknown or expired; start again from the application.")
}
