import FoundationEssentials
import WebAuthn

extension WebAuthAPI {
    /// `POST /u/passkey/password`: the login page's password login or signup, beside its passkey
    /// buttons, as Universal Login offers both when the connection has both. **[local]**
    ///
    /// A login checks the password as the password grants do
    /// (``TenantServices/verifiedPasswordLogin(_:password:)``: the same answer for an unknown user, a
    /// passkey-only user and a wrong password; the user's lockout); a signup keeps the
    /// connection's policy and identifier rules, the organization's signup rules or its invitation
    /// (``TenantServices/signupChecks(for:email:)`` before, ``TenantServices/joinAfterSignup(_:request:)``
    /// after, as the passkey signup), and stores the user with the password. Either
    /// opens the login session through the one ``openSession(userID:authTime:request:refusal:secure:)``,
    /// then answers as ``pageVerify(_:caller:)`` does.
    ///
    /// - Throws: `access_denied` (403) as the page API does; `invalid_request` for an unknown
    ///   transaction, a missing identifier or password, a weak password (with the policy), a taken
    ///   identifier, or a connection without passwords; `requires_verification` without the
    ///   CAPTCHA answer while bot detection is on; `invalid_grant` (403) `Wrong email or
    ///   password.`; `too_many_attempts`.
    func pagePassword(_ request: PagePasswordRequest, caller: PageCaller) async throws(TenantError)
        -> (answer: PageVerifyResponse, sessionCookie: String)
    {
        let digest = try checkPageCaller(request.transaction, caller)
        let transaction = try await liveTransaction(digest, kind: nil)
        guard configuration.databaseConnection.passwordsEnabled else {
            throw .invalidRequest("The connection \(configuration.connection) does not take passwords.")
        }
        let identifier = String((request.identifier ?? "").filter { !$0.isWhitespace })
        guard !identifier.isEmpty else {
            throw .invalidRequest("Enter your email address or username.")
        }
        guard let password = request.password, !password.text.isEmpty else {
            throw .invalidRequest("Enter your password.")
        }
        try services.checkCaptcha(request.captcha)
        let organization = try services.issuedOrganization(transaction.request.organization)
        let user: TenantUser
        var refusal: TenantError?
        switch request.mode {
        case "login":
            user = try await services.verifiedPasswordLogin(identifier, password: password)
            do {
                try await services.admit(user, to: organization)
            } catch  where error.code == .accessDenied {
                refusal = error
            }
        case "signup":
            let profile = Self.pageProfile(identifier)
            try await services.signupChecks(for: transaction.request, email: profile.email)
            do {
                try services.checkPasswordStrength(password)
            } catch {
                throw .invalidRequest("The password is too weak. It must have:\n" + error.policy.text)
            }
            let new = try await services.newUser(profile: profile, metadata: [:], connection: configuration.connection)
            try await store.insertUser(new)
            try await services.setPassword(password, userID: new.id)
            try await services.joinAfterSignup(new, request: transaction.request)
            user = new
        default:
            throw .invalidRequest("mode: login or signup")
        }
        let (response, cookie) = try await openSession(
            userID: user.id, authTime: clock.now(), request: transaction.request, refusal: refusal,
            secure: caller.secure)
        return (try await pageRedirect(response, digest: digest), cookie)
    }
}
