import Auth0Passkeys
import Foundation
import WebAuthn

/// What `passkey methods` reports: the user's authentication methods (spec §5.5).
struct MethodsOutcome: Encodable {
    struct Method: Encodable {
        let id: String
        let type: String
        let createdAt: String
        let name: String?
        let keyID: String?
        let deviceType: String?
        let backedUp: Bool?
        let rpID: String?

        enum CodingKeys: String, CodingKey {
            case id, type, name
            case createdAt = "created_at"
            case keyID = "key_id"
            case deviceType = "credential_device_type"
            case backedUp = "credential_backed_up"
            case rpID = "relying_party_identifier"
        }

        init(_ method: AuthenticationMethod) {
            id = method.id
            type = method.type
            createdAt = method.createdAt
            name = method.name
            keyID = method.keyId
            deviceType = method.credentialDeviceType
            backedUp = method.credentialBackedUp
            rpID = method.relyingPartyIdentifier
        }
    }

    let methods: [Method]

    var text: String {
        guard !methods.isEmpty else { return "No authentication methods." }
        return methods.map { method in
            [
                method.type, method.id, method.keyID.map { "key \($0)" }, method.rpID, method.deviceType,
                method.createdAt,
            ]
            .compactMap { $0 }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

/// What `passkey whoami` reports.
struct WhoamiOutcome: Encodable {
    let source: String
    let sub: String
    let email: String?
    let emailVerified: Bool?
    let name: String?
    let nickname: String?
    let phoneNumber: String?
    let username: String?

    enum CodingKeys: String, CodingKey {
        case source, sub, email, name, nickname, username
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
    }

    init(_ user: UserInfo, source: String) {
        self.source = source
        sub = user.sub
        email = user.email
        emailVerified = user.emailVerified
        name = user.name
        nickname = user.nickname
        phoneNumber = user.phoneNumber
        username = user.preferredUsername ?? user.customClaims["username"]?.stringValue
    }

    var text: String {
        let fields: [(String, String?)] = [
            ("sub", sub), ("email", email), ("email_verified", emailVerified.map(String.init)), ("name", name),
            ("nickname", nickname), ("phone_number", phoneNumber), ("username", username), ("from", source),
        ]
        return fields.compactMap { label, value in
            value.map { "\(label.padding(toLength: 15, withPad: " ", startingAt: 0))\($0)" }
        }
        .joined(separator: "\n")
    }
}

/// What `passkey token` reports.
struct TokenOutcome: Encodable {
    let accessToken: String
    let tokenType: String
    let expiresAt: String
    let scope: String?
    let audience: String?

    enum CodingKeys: String, CodingKey {
        case scope, audience
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresAt = "expires_at"
    }

    /// The token alone, for `$(passkey token)`.
    var text: String { accessToken }
}

/// What `passkey logout` reports.
struct LogoutOutcome: Encodable {
    let hadSession: Bool
    let revoked: Bool

    enum CodingKeys: String, CodingKey {
        case revoked
        case hadSession = "had_session"
    }

    var text: String {
        guard hadSession else { return "No session to log out of." }
        return revoked
            ? "Logged out; the refresh token was revoked." : "Logged out (the refresh token was not revoked)."
    }
}

extension Auth0Flows {
    /// The user's authentication methods through My Account (spec §5.5).
    func methods(type: String?) async throws -> MethodsOutcome {
        let account = try await myAccount(scope: Self.readMethodsScope)
        let methods = try await account.authenticationMethods.getAuthenticationMethods(type: type).start()
        return MethodsOutcome(methods: methods.map(MethodsOutcome.Method.init))
    }

    /// The signed-in user: from the stored ID token, or from `/userinfo` (spec §6.3) when `refresh`.
    func whoami(refresh: Bool) async throws -> WhoamiOutcome {
        guard refresh else { return WhoamiOutcome(try await storedUser(), source: "id_token") }
        let credentials = try await manager.credentials()
        let user = try await authentication.userInfo(
            withAccessToken: credentials.accessToken, tokenType: credentials.tokenType
        ).start()
        return WhoamiOutcome(user, source: "userinfo")
    }

    /// A valid access token: the session's, renewed when it expires within a minute, or with an
    /// `audience`, one for that API from the refresh token (spec §6.4, §9).
    func token(audience: String?, scope: String?) async throws -> TokenOutcome {
        if let audience {
            let api = try await apiCredentials(audience: audience, scope: scope)
            return TokenOutcome(
                accessToken: api.accessToken, tokenType: api.tokenType,
                expiresAt: SessionReport.timestamp(api.expiresAt), scope: api.scope, audience: audience)
        }
        let credentials = try await manager.credentials(withScope: scope)
        return TokenOutcome(
            accessToken: credentials.accessToken, tokenType: credentials.tokenType,
            expiresAt: SessionReport.timestamp(credentials.expiresAt), scope: credentials.scope,
            audience: settings.audience)
    }

    /// Ends the session: with `revoke`, the refresh token is revoked first (spec §6.2) and the
    /// session is kept when that fails, so it can be tried again; then every entry is deleted.
    func logout(revoke: Bool) async throws -> LogoutOutcome {
        let hadSession = await manager.user != nil
        let canRenew = await manager.canRenew()
        let revoked = revoke && hadSession && canRenew
        if revoke {
            try await manager.revoke()
        }
        try await manager.clearAll()
        return LogoutOutcome(hadSession: hadSession, revoked: revoked)
    }
}
