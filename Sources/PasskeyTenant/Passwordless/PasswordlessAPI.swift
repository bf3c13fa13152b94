import FoundationEssentials
import Hummingbird
import WebAuthn

/// Passwordless (Auth0 docs, "Passwordless Connections", "Get Code or Link"): a one-time code
/// by email or SMS, or a magic link by email, sent to the local outbox (``TenantServices/send(_:)``)
/// instead of a mail or SMS provider.
///
/// ```
/// POST /passwordless/start            sends a code or a link                  (under the address lockout)
/// GET  /passwordless/verify_redirect  a magic link opened: the application's redirect with a code
/// ```
///
/// The code is redeemed at `/oauth/token` with the passwordless OTP grant
/// (``AuthenticationAPI/passwordlessLogin(_:)``); a link ends, as `/authorize` does, at the
/// application's redirect URI with an authorization code, over a new login session.
struct PasswordlessAPI: TenantRoutes {
    let services: TenantServices

    func addRoutes(to router: Router<TenantRequestContext>, secure: Bool) {
        let sources = configuration.pageConnectSources
        limited(router).post("passwordless/start") { request, context in
            try await self.start(
                request.decode(as: PasswordlessStartRequest.self, context: context),
                authorization: TenantServices.authorization(request),
                origin: self.webAuth.tenantOrigin(
                    host: request.headers[.host] ?? request.head.authority, secure: secure, acceptedOnly: false))
        }
        router.get("passwordless/verify_redirect") { request, _ in
            try await self.verifyRedirect(query: request.uri.query, secure: secure).response(connectSources: sources)
        }
    }

    /// Web Auth, whose login session a magic link opens.
    var webAuth: WebAuthAPI { WebAuthAPI(services: services) }

    /// `POST /passwordless/start`: checks the client, the connection, what to send and the
    /// address, then keeps a new 6-digit code for the address (replacing the last one) and sends it,
    /// or a magic link carrying it, to the outbox.
    ///
    /// Which applications may: as on Auth0, those with the Passwordless OTP grant for a code
    /// (``TokenRequest/passwordlessOTPGrant``), and **[local]** those with the authorization code
    /// grant for a link (a link ends in an authorization code); a confidential client authenticates
    /// as at `/oauth/token`. A link's `authParams` are checked as `/authorize` checks its
    /// parameters: `redirect_uri` one of the client's Allowed Callback URLs, `response_type` `code`
    /// (the default **[local]**: the tenant issues no implicit tokens), an S256 `code_challenge`
    /// when given (optional **[local]**, as Auth0's links carry none), a known `audience`.
    ///
    /// - Parameters:
    ///   - request: the body.
    ///   - authorization: the request's `Authorization` header, for `client_secret_basic`.
    ///   - origin: the tenant's origin as the client reached it, where a link points.
    /// - Returns: the user's ID and the address.
    /// - Throws: `invalid_client` (401), `unauthorized_client` (403) as client authentication says;
    ///   Auth0's `bad.connection`, `bad.email`, `bad.phone_number`, `bad.request` and
    ///   `bad.authParams` (400) for the body.
    func start(_ request: PasswordlessStartRequest, authorization: (scheme: String, token: Secret)?, origin: String)
        async throws(TenantError) -> PasswordlessStartResponse
    {
        // Auth0 defaults `send` to `link`, which it sends by email only; SMS sends a code
        // (auth0-python's `Passwordless.sms` sends no `send`).
        let send = request.send ?? (request.connection == PasswordlessConnection.sms.rawValue ? "code" : "link")
        guard send == "code" || send == "link" else {
            throw TenantError(.badRequest, "send must be code or link")
        }
        let client = try services.authenticateClient(
            ClientCredentials(
                authorization: authorization, bodyClientID: request.clientID, bodySecret: request.clientSecret),
            grant: send == "code" ? TokenRequest.passwordlessOTPGrant : TokenRequest.authorizationCodeGrant)
        guard let name = request.connection else {
            throw TenantError(.badConnection, "Missing required property: connection")
        }
        guard let connection = PasswordlessConnection(rawValue: name) else {
            throw TenantError(.badConnection, "Connection does not exist")
        }
        let address = try Self.address(of: request, on: connection)
        var link: AuthorizationRequest?
        if send == "link" {
            guard connection == .email else { throw TenantError(.badRequest, "A link is sent by email only.") }
            link = try authorizationRequest(request.authParams ?? [:], client: client)
        }
        let code = Self.newCode()
        let key = PasswordlessCode.key(clientID: client.clientID, connection: connection, address: address)
        let now = clock.now()
        try await services.keep(
            PasswordlessCode(
                codeDigest: Base64URL(PasswordlessCode.digest(of: code, for: key)), clientID: client.clientID,
                connection: connection, address: address, link: link,
                expiresAt: now.addingTimeInterval(configuration.outbox.otpLifetime.seconds)),
            key: key)
        var message = OutboxMessage(
            id: TenantServices.newMessageID(), to: address, channel: connection.channel, kind: .passwordlessCode,
            text: "Your verification code is: \(code)", code: code, link: nil, clientID: client.clientID,
            createdAt: now)
        if link != nil {
            let parameters = [
                ("client_id", client.clientID), ("connection", connection.rawValue), ("email", address),
                ("verification_code", code),
            ]
            let url =
                origin + "/passwordless/verify_redirect?"
                + parameters.map { "\($0)=\(PercentEncoding.encode($1))" }.joined(separator: "&")
            message.kind = .passwordlessLink
            message.link = url
            message.text = "Click here to log in: \(url)"
        }
        try await services.send(message)
        let userID = TenantServices.passwordlessUserID(connection, address: address)
        let known = try await store.user(id: userID) != nil
        return PasswordlessStartResponse(
            id: String(userID.dropFirst(connection.rawValue.count + 1)),
            email: connection == .email ? address : nil, phoneNumber: connection == .sms ? address : nil,
            emailVerified: connection == .email ? known : nil)
    }

    /// The address the code goes to: the email (an `@` between non-empty parts, no space, at most
    /// 254 characters) or the E.164 phone number (`^\+[0-9]{1,15}$`, Auth0's pattern).
    static func address(of request: PasswordlessStartRequest, on connection: PasswordlessConnection)
        throws(TenantError) -> String
    {
        switch connection {
        case .email:
            guard let email = request.email else {
                throw TenantError(.badEmail, "Missing required property: email")
            }
            let parts = email.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, email.utf8.count <= 254,
                !email.contains(where: \.isWhitespace)
            else { throw TenantError(.badEmail, "Invalid email address") }
            return email
        case .sms:
            guard let phone = request.phoneNumber else {
                throw TenantError(.badPhoneNumber, "Missing required property: phone_number")
            }
            let digits = phone.utf8.dropFirst()
            guard phone.hasPrefix("+"), (1...15).contains(digits.count),
                digits.allSatisfy({ (0x30...0x39).contains($0) })
            else { throw TenantError(.badPhoneNumber, "String does not match pattern: ^\\+[0-9]{1,15}$") }
            return phone
        }
    }

    /// A magic link's authorization request, from the start's `authParams`.
    ///
    /// - Throws: `bad.authParams` for a parameter `/authorize` would refuse.
    func authorizationRequest(_ parameters: [String: String], client: RegisteredApplication)
        throws(TenantError) -> AuthorizationRequest
    {
        func refuse(_ detail: String) -> TenantError { TenantError(.badAuthParams, "error in authParams - \(detail)") }
        guard let redirectURI = parameters["redirect_uri"], client.allowsCallback(redirectURI) else {
            throw refuse("redirect_uri: missing, or not one of the application's Allowed Callback URLs")
        }
        guard (parameters["response_type"] ?? "code") == "code" else {
            throw refuse("response_type: only code is supported")
        }
        let challenge = parameters["code_challenge"]
        if challenge != nil || parameters["code_challenge_method"] != nil {
            guard parameters["code_challenge_method"] == "S256", let challenge,
                WebAuthAPI.isPKCEValue(challenge, length: 43...43, symbols: "-_")
            else { throw refuse("code_challenge: 43 base64url characters, with code_challenge_method S256") }
        }
        if let audience = parameters["audience"], services.apiScopes(audience) == nil {
            throw refuse("audience: Service not found: \(audience.prefix(200))")
        }
        return AuthorizationRequest(
            clientID: client.clientID, redirectURI: redirectURI, state: parameters["state"],
            nonce: parameters["nonce"], scope: parameters["scope"], audience: parameters["audience"],
            organization: nil, codeChallenge: challenge, prompt: nil, maxAge: nil, screenHint: nil, loginHint: nil,
            autostart: nil, dpopJKT: nil, responseMode: nil)
    }

    /// A new code: 6 decimal digits, uniformly drawn (a draw of 4 random bytes past the last whole
    /// million is drawn again).
    static func newCode() -> String {
        let limit = UInt32.max - UInt32.max % 1_000_000
        while true {
            let value = SecureRandom.bytes(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if value < limit {
                let digits = String(value % 1_000_000)
                return String(repeating: "0", count: 6 - digits.count) + digits
            }
        }
    }
}

extension TenantError.Code {
    /// Auth0's `/passwordless/start` refusal of a missing or malformed `email`.
    static let badEmail = Self(rawValue: "bad.email")
    /// Auth0's `/passwordless/start` refusal of a missing or malformed `phone_number`.
    static let badPhoneNumber = Self(rawValue: "bad.phone_number")
    /// Auth0's `/passwordless/start` refusal of a body member it does not allow.
    static let badRequest = Self(rawValue: "bad.request")
    /// Auth0's `/passwordless/start` refusal of `authParams`.
    static let badAuthParams = Self(rawValue: "bad.authParams")
}

extension PasswordlessStartResponse: ResponseEncodable {}
