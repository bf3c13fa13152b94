import Foundation
import MCP
import PasskeyAuthenticator
import PasskeyControl
import WebAuthn

/// The MCP tools of `passkey mcp`: the control service's ceremonies, store and virtual-user
/// flows, plus the CLI's inspect and verify, for an agent testing an app (MCP 2025-06-18 "Tools").
///
/// Every tool answers JSON text (and, when it is an object, the same value as structured content); a refusal is a tool
/// error whose text starts with the CLI's name for it (`NotAllowedError: …`, `invalid_grant: …`).
/// The ceremonies run on one authenticator over the store `passkey mcp` was started with.
struct PasskeyMCP: Sendable {
    let service: ControlService
    let session: String
    let authenticator: String

    /// A service with one session and one authenticator of `profile` over `store`, its keys kept
    /// by `custody` when given.
    static func start(store: String, profile: String, custody: (any CredentialKeyCustody)? = nil)
        async throws -> PasskeyMCP
    {
        let service = ControlService(
            passphrase: StoreOptions.passphrase(environment: ProcessInfo.processInfo.environment), custody: custody)
        let session = await service.newSession()
        let configuration = try VirtualAuthenticatorConfiguration(parameters: [
            "softpasskey:profile": .string(profile), "softpasskey:store": .string(store),
        ])
        let authenticator = try await service.addAuthenticator(session: session, configuration)
        return PasskeyMCP(service: service, session: session, authenticator: authenticator)
    }

    /// Registers the tools on `server`.
    func register(on server: Server) async {
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: Self.tools) }
        await server.withMethodHandler(CallTool.self) { call in
            await self.call(call.name, arguments: call.arguments ?? [:])
        }
    }

    /// Runs one tool.
    func call(_ name: String, arguments: [String: Value]) async -> CallTool.Result {
        do {
            let arguments = try Arguments(arguments)
            let output: [UInt8]
            switch name {
            case "create":
                let options = try arguments.decode(PublicKeyCredentialCreationOptionsJSON.self, "options")
                output = WebAuthnJSON.encode(
                    try await service.create(
                        session: session, authenticator: authenticator, options: options,
                        origin: try arguments.origin()))
            case "get":
                let options = try arguments.decode(PublicKeyCredentialRequestOptionsJSON.self, "options")
                output = WebAuthnJSON.encode(
                    try await service.get(
                        session: session, authenticator: authenticator, options: options,
                        origin: try arguments.origin(), choosing: try arguments.choice()))
            case "list":
                let rpID = arguments.string("rpId")
                let credentials = try await service.credentials(session: session, authenticator: authenticator)
                output = WebAuthnJSON.encode(credentials.filter { rpID == nil || $0.rpId == rpID })
            case "delete":
                try await service.removeCredential(
                    session: session, authenticator: authenticator,
                    credentialID: try arguments.bytes("credentialId"))
                output = Array(#"{"deleted":true}"#.utf8)
            case "inspect":
                let report = try InspectedInput(Array(try arguments.required("input").utf8)).report()
                output = Array(report.json.utf8)
            case "verify_registration":
                let response = try arguments.decode(RegistrationResponseJSON.self, "response")
                let verified = try arguments.relyingParty().verifyRegistration(
                    response, challenge: try arguments.bytes("challenge"))
                output = WebAuthnJSON.encode(Passkey.Verify.Registration.Output(verified))
            case "verify_authentication":
                let response = try arguments.decode(AuthenticationResponseJSON.self, "response")
                let record = CredentialRecord(
                    id: response.rawId.bytes, publicKey: try arguments.bytes("publicKey"),
                    signCount: UInt32(exactly: arguments.number("signCount") ?? 0) ?? 0,
                    userHandle: arguments.string("userHandle") == nil ? nil : try arguments.bytes("userHandle"))
                let verified = try arguments.relyingParty().verifyAuthentication(
                    response, challenge: try arguments.bytes("challenge"), credential: record,
                    userIdentified: record.userHandle == nil ? .beforeCeremony : .byResponse)
                output = WebAuthnJSON.encode(Passkey.Verify.Authentication.Output(verified))
            case "signup":
                let user = try await user(arguments)
                let result = try await service.signUp(
                    session: session, user: user, email: arguments.string("email"), name: arguments.string("name"),
                    username: arguments.string("username"), phone: arguments.string("phone"))
                output = WebAuthnJSON.encode(UserOutput(userId: user, result: result))
            case "login":
                let user = try await user(arguments)
                let result = try await service.logIn(session: session, user: user, choosing: try arguments.choice())
                output = WebAuthnJSON.encode(UserOutput(userId: user, result: result))
            case "enroll":
                output = WebAuthnJSON.encode(
                    try await service.enroll(session: session, user: try arguments.required("userId")))
            case "token":
                output = WebAuthnJSON.encode(
                    try await service.token(
                        session: session, user: try arguments.required("userId"),
                        audience: arguments.string("audience"), scope: arguments.string("scope")))
            case "logout":
                output = WebAuthnJSON.encode(
                    try await service.logOut(
                        session: session, user: try arguments.required("userId"),
                        revoke: arguments.bool("revoke") ?? true))
            default:
                return Self.failure("unknown tool \(name)")
            }
            let text = String(decoding: output, as: UTF8.self)
            // Structured content is a JSON object (MCP "Tools": structuredContent); a list stays text.
            let structured = (try? JSONDecoder().decode(Value.self, from: Data(output))).flatMap {
                $0.objectValue == nil ? nil : $0
            }
            return CallTool.Result(
                content: [.text(text: text, annotations: nil, _meta: nil)], structuredContent: structured,
                isError: false)
        } catch let error as ControlError {
            return Self.failure("\(error.code): \(error.message)")
        } catch let error as WebAuthnError {
            return Self.failure("\(error.code): \(error.reason)")
        } catch {
            return Self.failure("\(error)")
        }
    }

    /// The user a flow is for: `userId`, or a new user of `tenant` whose passkeys live in this
    /// server's authenticator.
    private func user(_ arguments: Arguments) async throws -> String {
        if let id = arguments.string("userId") {
            return id
        }
        let tenant = try arguments.decode(TenantDescription.self, "tenant")
        return try await service.addUser(
            session: session, tenant: tenant, authenticatorID: authenticator, origin: arguments.string("origin"))
    }

    private static func failure(_ text: String) -> CallTool.Result {
        CallTool.Result(content: [.text(text: text, annotations: nil, _meta: nil)], isError: true)
    }

    /// A flow's answer, with the user's ID for the next call.
    struct UserOutput: Encodable {
        let userId: String
        let result: SessionResult
    }
}
