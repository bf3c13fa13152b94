import Hummingbird
import PasskeyAuthenticator
import WebAuthn

extension ControlServer {
    /// The virtual users: added to a session, then driven through Auth0's passkey flows.
    func addUserRoutes(to group: RouterGroup<ControlRequestContext>) {
        group.post { request, context in
            let body = try await request.decode(as: NewUser.self, context: context)
            return ControlValue(
                try await service.addUser(
                    session: context.parameters.require("session"), tenant: body.tenant,
                    authenticatorID: body.authenticatorId, origin: body.origin))
        }
        group.delete(":user") { _, context in
            let (session, user) = try Self.userIDs(context)
            try await service.removeUser(session: session, user)
            return ControlValue.null
        }
        group.post(":user/signup") { request, context in
            let (session, user) = try Self.userIDs(context)
            let body = try await request.decode(as: SignupRequest.self, context: context)
            return ControlValue(
                try await service.signUp(
                    session: session, user: user, email: body.email, name: body.name, username: body.username,
                    phone: body.phone))
        }
        group.post(":user/login") { request, context in
            let (session, user) = try Self.userIDs(context)
            let body = try await request.decode(as: LoginRequest.self, context: context)
            return ControlValue(try await service.logIn(session: session, user: user, choosing: try body.choice()))
        }
        group.post(":user/enroll") { request, context in
            let (session, user) = try Self.userIDs(context)
            let body = try await request.decode(as: EnrollRequest.self, context: context)
            return ControlValue(
                try await service.enroll(session: session, user: user, authenticator: body.authenticatorId))
        }
        group.post(":user/token") { request, context in
            let (session, user) = try Self.userIDs(context)
            let body = try await request.decode(as: TokenRequest.self, context: context)
            return ControlValue(
                try await service.token(session: session, user: user, audience: body.audience, scope: body.scope))
        }
        group.post(":user/api") { request, context in
            let (session, user) = try Self.userIDs(context)
            let body = try await request.decode(as: APIRequest.self, context: context)
            return ControlValue(
                try await service.callAPI(
                    session: session, user: user, method: body.method ?? "GET", url: body.url,
                    audience: body.audience, scope: body.scope, body: body.body.map { WebAuthnJSON.encode($0) }))
        }
        group.post(":user/logout") { request, context in
            let (session, user) = try Self.userIDs(context)
            let body = try await request.decode(as: LogoutRequest.self, context: context)
            return ControlValue(try await service.logOut(session: session, user: user, revoke: body.revoke ?? true))
        }
    }

    static func userIDs(_ context: ControlRequestContext) throws -> (session: String, user: String) {
        (try context.parameters.require("session"), try context.parameters.require("user"))
    }
}

/// `{tenant, authenticatorId, origin?}`.
struct NewUser: Decodable {
    let tenant: TenantDescription
    let authenticatorId: String
    let origin: String?
}

/// `{email?, name?, username?, phone?}`.
struct SignupRequest: Decodable {
    let email: String?
    let name: String?
    let username: String?
    let phone: String?
}

/// `{user?, credentialId?}`: which passkey, when the device has several for the RP.
struct LoginRequest: Decodable {
    let user: String?
    let credentialId: Base64URL?

    func choice() throws(ControlError) -> AccountChoice {
        try accountChoice(user: user, credentialID: credentialId, refusal: "invalid argument")
    }
}

/// `{authenticatorId?}`: the device to enroll from, when not the user's own.
struct EnrollRequest: Decodable {
    let authenticatorId: String?
}

/// `{audience?, scope?}`.
struct TokenRequest: Decodable {
    let audience: String?
    let scope: String?
}

/// `{url, method?, audience?, scope?, body?}`; `body` is any JSON value, sent as JSON.
struct APIRequest: Decodable {
    let url: String
    let method: String?
    let audience: String?
    let scope: String?
    let body: JSONValue?
}

/// `{revoke?}`, revoking by default.
struct LogoutRequest: Decodable {
    let revoke: Bool?
}
