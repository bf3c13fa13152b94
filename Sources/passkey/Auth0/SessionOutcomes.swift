import Auth0Passkeys
import Foundation
import PasskeyKit
import WebAuthn

/// What `passkey methods` reports: the user's authentication methods (auth0-passkey-api.md §5.5).
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
                method.type, method.id, method.name.map { "\"\($0)\"" }, method.keyID.map { "key \($0)" },
                method.rpID, method.deviceType, method.createdAt,
            ]
            .compactMap { $0 }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

/// What `passkey methods rename` reports: the method as the tenant now has it (§19.1).
struct RenamedMethodOutcome: Encodable {
    let method: MethodsOutcome.Method

    var text: String { "Renamed \(method.id)" + (method.name.map { " to \"\($0)\"" } ?? "") + "." }
}

/// What `passkey methods delete` reports: the ID of the method the tenant no longer has.
struct DeletedMethodOutcome: Encodable {
    let deleted: String

    var text: String { "Deleted \(deleted)." }
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

    /// The session's access token.
    init(_ credentials: Credentials, audience: String?) {
        self.init(
            accessToken: credentials.accessToken, tokenType: credentials.tokenType,
            expiresAt: SessionReport.timestamp(credentials.expiresAt), scope: credentials.scope, audience: audience)
    }

    /// An access token for another API.
    init(_ credentials: APICredentials, audience: String) {
        self.init(
            accessToken: credentials.accessToken, tokenType: credentials.tokenType,
            expiresAt: SessionReport.timestamp(credentials.expiresAt), scope: credentials.scope, audience: audience)
    }

    private init(accessToken: String, tokenType: String, expiresAt: String, scope: String?, audience: String?) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.scope = scope
        self.audience = audience
    }

    /// The token alone, for `$(passkey token)`.
    var text: String { accessToken }
}

/// What `passkey logout` reports.
struct LogoutOutcome: Encodable {
    let hadSession: Bool
    let revoked: Bool

    init(_ result: LogOutResult) {
        hadSession = result.hadSession
        revoked = result.revoked
    }

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
