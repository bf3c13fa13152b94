import FoundationEssentials
import HTTPTypes
import WebAuthn

extension WebAuthAPI {
    /// `POST /u/passkey/options`: the options of the page's next ceremony (the **[local]** page
    /// API; WebAuthn L3 §5.1.10). Login is discoverable, as the native login (auth0-passkey-api.md
    /// §2); signup makes a new user of the identifier, as the native signup (§1). Each call
    /// replaces the transaction's pending challenge. **[local]**
    ///
    /// - Parameters:
    ///   - request: the transaction, the mode and the identifier.
    ///   - caller: the cookies and headers.
    /// - Returns: the options.
    /// The signup's identifier is an email when it has an `@`, a phone number when it starts with
    /// `+`, else a username, checked against the connection's attributes as the native signup's
    /// profile is (§18).
    ///
    /// - Throws: `access_denied` (403) when the transaction cookie does not match or the `Origin`
    ///   is not the page's, and for a signup into an organization that takes none (§17);
    ///   `invalid_request` for an unknown or expired transaction, an unknown mode, a missing,
    ///   malformed, refused or taken identifier.
    func pageOptions(_ request: PageOptionsRequest, caller: PageCaller) async throws(TenantError)
        -> PageOptionsResponse
    {
        let digest = try checkPageCaller(request.transaction, caller)
        var transaction = try await liveTransaction(digest, kind: nil)
        let response: PageOptionsResponse
        switch request.mode {
        case "login":
            response = .get(pendLogin(&transaction))
        case "signup":
            guard let identifier = request.identifier, !identifier.isEmpty else {
                throw .invalidRequest("Enter your email address, phone number or username to sign up.")
            }
            try await services.signupChecks(for: transaction.request, email: Self.pageProfile(identifier).email)
            let user = try await services.newUser(
                profile: Self.pageProfile(identifier), metadata: [:], connection: configuration.connection)
            let generated = services.registrationOptions(for: user)
            (transaction.mode, transaction.challenge, transaction.user) = (.signup, generated.challenge, user)
            response = .create(generated.options)
        default:
            throw .invalidRequest("mode: login or signup")
        }
        try await storePending(transaction, digest: digest)
        return response
    }

    /// `POST /u/passkey/verify`: verifies the page's ceremony against its pending challenge and
    /// the page's origin (``PageOrigin``), creates the user of a signup, opens a login session and
    /// issues the authorization code (RFC 6749 §4.1.2). The challenge is spent whatever the
    /// outcome; a failure leaves the transaction usable for another try. **[local]**
    ///
    /// - Parameters:
    ///   - request: the transaction and the credential.
    ///   - caller: the cookies and headers.
    /// - Returns: where the page sends the browser — the redirect URI with `code` and `state` in the
    ///   `query` and `fragment` modes, else `/u/passkey/response`, which renders the response page
    ///   (``pageResponse(transactionCookie:)``) — and the `passkey_session` cookie.
    /// With an organization, a signup makes the user a member, and a login lets a member in; a
    /// non-member is sent back to the application with `access_denied` (auth0-passkey-api.md §17).
    ///
    /// - Throws: `access_denied` (403) as ``pageOptions(_:caller:)``; `invalid_request` for an
    ///   unknown transaction, no pending ceremony, a credential of the wrong shape or a taken
    ///   identifier; `invalid_grant` for a credential that does not verify; `too_many_attempts`.
    func pageVerify(_ request: PageVerifyRequest, caller: PageCaller) async throws(TenantError)
        -> (answer: PageVerifyResponse, sessionCookie: String)
    {
        let digest = try checkPageCaller(request.transaction, caller)
        let (transaction, mode, challenge) = try await takeCeremony(digest, kind: nil)
        let relyingParty = configuration.relyingParty(page: caller.page)
        let organization = try services.issuedOrganization(transaction.request.organization)
        let user: TenantUser
        var refusal: TenantError?
        switch mode {
        case .login:
            user = try await services.verifiedLogin(
                request.credential, challenge: challenge, relyingParty: relyingParty)
            do {
                try await services.admit(user, to: organization)
            } catch  where error.code == .accessDenied {
                refusal = error
            }
        case .signup:
            guard let new = transaction.user else { throw .invalidRequest("The signup carries no user.") }
            let credential = try services.verifiedPasskey(
                request.credential, challenge: challenge, relyingParty: relyingParty, userID: new.id,
                userAgent: caller.userAgent)
            try await store.createUser(new, credential: credential)
            try await services.joinAfterSignup(new, request: transaction.request)
            user = new
        }
        let (response, cookie) = try await openSession(
            userID: user.id, authTime: clock.now(), request: transaction.request, refusal: refusal,
            secure: caller.secure)
        return (try await pageRedirect(response, digest: digest), cookie)
    }

    /// `POST /u/passkey/cancel`: the user gives up on the page, and goes back to the application
    /// with `access_denied` (RFC 6749 §4.1.2.1), as the embedded mode's cancel does. **[local]**
    /// Auth0's page has no such button; the tenant's has, so that a provider's refusal can be
    /// driven from a browser.
    ///
    /// - Parameters:
    ///   - request: the transaction.
    ///   - caller: the cookies and headers.
    /// - Returns: where the page sends the browser, as ``pageVerify(_:caller:)``'s answer.
    /// - Throws: `access_denied` (403) as ``pageOptions(_:caller:)``; `invalid_request` for an
    ///   unknown or expired transaction.
    func pageCancel(_ request: PageCancelRequest, caller: PageCaller) async throws(TenantError) -> PageVerifyResponse {
        let digest = try checkPageCaller(request.transaction, caller)
        let transaction = try await liveTransaction(digest, kind: nil)
        return try await pageRedirect(
            transaction.request.response([
                ("error", "access_denied"), ("error_description", "The user cancelled the login."),
            ]),
            digest: digest)
    }

    /// Where the page sends the browser with `response`: the redirect URI in the `query` and
    /// `fragment` modes, the transaction gone; else `/u/passkey/response`, which renders the
    /// response page (``pageResponse(transactionCookie:)``) from the transaction, its ceremony
    /// cleared.
    func pageRedirect(_ response: AuthorizationResponse, digest: [UInt8]) async throws(TenantError)
        -> PageVerifyResponse
    {
        if let location = response.location {
            try await store.delete(LoginTransaction.self, key: .digest(digest))
            return PageVerifyResponse(redirect: Secret(location))
        }
        // A form_post or web_message page: the browser fetches it from the tenant with the page's cookie.
        _ = try await store.update(LoginTransaction.self, key: .digest(digest), at: clock.now()) {
            ($0.response, $0.mode, $0.challenge, $0.user) = (response, nil, nil, nil)
        }
        return PageVerifyResponse(redirect: Secret("/u/passkey/response"))
    }

    /// `GET /u/passkey/response`: the `form_post` or `web_message` page of the login page's
    /// verified ceremony (``AuthorizationResponse``), once; the transaction goes with it. **[local]**
    /// A transaction with no response yet is left alone.
    ///
    /// - Parameter transactionCookie: the `passkey_tx` cookie.
    /// - Returns: the response page, or a 400 page when there is none.
    func pageResponse(transactionCookie: String?) async throws(TenantError) -> BrowserResponse {
        let key = StoredValue.digest(Secret(transactionCookie ?? "").digest)
        guard transactionCookie != nil,
            let transaction = try await store.peek(LoginTransaction.self, key: key, at: clock.now()),
            transaction.kind == nil, let response = transaction.response
        else {
            return .page(
                .badRequest,
                HTMLPage.message(
                    title: "Nothing to return",
                    text: "No finished login is waiting on this browser; start again from the application."))
        }
        try await store.delete(LoginTransaction.self, key: key)
        return response.browserResponse
    }

    /// The CSRF checks of the page API: the `passkey_tx` cookie equals the body's transaction
    /// (double submit: a cross-site page can neither read the cookie nor set the body's JSON
    /// content type without a preflight), and an `Origin`, when sent, is the page's.
    ///
    /// - Returns: the transaction's digest.
    func checkPageCaller(_ transaction: String, _ caller: PageCaller) throws(TenantError) -> [UInt8] {
        let digest = Secret(transaction).digest
        guard let cookie = caller.transactionCookie, Secret(cookie).digest == digest else {
            throw TenantError(.accessDenied, status: 403, "The login page's transaction cookie is missing or differs.")
        }
        if let origin = caller.origin, origin != caller.page?.text {
            throw TenantError(.accessDenied, status: 403, "Cross-origin request refused: \(origin.prefix(100))")
        }
        return digest
    }

    /// The profile of a login page signup's one identifier: an email with an `@`, a phone number
    /// starting with `+`, else a username.
    static func pageProfile(_ identifier: String) -> UserProfile {
        if identifier.contains("@") { return UserProfile(email: identifier) }
        if identifier.hasPrefix("+") { return UserProfile(phoneNumber: identifier) }
        return UserProfile(username: identifier)
    }
}
