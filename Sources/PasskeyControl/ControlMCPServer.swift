import FoundationEssentials
public import MCP
import PasskeyAuthenticator
import WebAuthn

/// The control service over MCP (MCP 2025-06-18 "Tools"): the ceremonies, store and virtual-user
/// flows of ``ControlService`` as tools an agent calls, the MCP counterpart of ``ControlServer``.
///
/// One server drives one authenticator of one session: `create` and `get` (WebAuthn L3 §5.1.3,
/// §5.1.4, JSON in and out as `toJSON()` gives them), `list` and `delete` of its credentials, and
/// the Auth0 flows of virtual users whose passkeys live in it (`signup`, `login`, `enroll`,
/// `token`, `logout`). An embedding process adds tools of its own (``ControlMCPTool``).
///
/// Every tool answers JSON text (and, when it is an object, the same value as structured
/// content); a refusal is a tool error whose text starts with the name of the error
/// (`NotAllowedError: …`, `invalid_grant: …`), as ``ControlError`` and `WebAuthnError` name it.
///
/// ```swift
/// let tools = try await ControlMCPServer.start(
///     authenticator: try VirtualAuthenticatorConfiguration(parameters: ["softpasskey:profile": .string("platform")]))
/// try await tools.serve(over: StdioTransport(), name: "my-tool", version: "1.0")
/// ```
public struct ControlMCPServer: Sendable {
    /// The service the tools call.
    public let service: ControlService
    /// The session the tools act in.
    public let session: String
    /// The authenticator `create`, `get`, `list` and `delete` use, and virtual users keep their
    /// passkeys in.
    public let authenticator: String
    /// The embedder's tools, served after the service's.
    public let additionalTools: [ControlMCPTool]

    /// The tools over an authenticator the caller made.
    ///
    /// - Parameters:
    ///   - service: the control service.
    ///   - session: a session of `service`.
    ///   - authenticator: an authenticator of that session.
    ///   - additionalTools: tools of the embedder's own, served after the service's.
    public init(
        service: ControlService, session: String, authenticator: String, additionalTools: [ControlMCPTool] = []
    ) {
        self.service = service
        self.session = session
        self.authenticator = authenticator
        self.additionalTools = additionalTools
    }

    /// The tools over a new session of `service` with one authenticator configured so.
    ///
    /// - Parameters:
    ///   - service: the control service; a new one with each store's key file by default.
    ///   - configuration: the authenticator (W3C WebDriver §11.3 parameters with SoftPasskey's
    ///     extensions: `softpasskey:profile`, `softpasskey:store`, …).
    ///   - additionalTools: tools of the embedder's own, served after the service's.
    /// - Returns: the tools.
    /// - Throws: ``ControlError`` `invalid argument` when the authenticator's store does not open.
    public static func start(
        service: ControlService = ControlService(), authenticator configuration: VirtualAuthenticatorConfiguration,
        additionalTools: [ControlMCPTool] = []
    ) async throws(ControlError) -> ControlMCPServer {
        let session = await service.newSession()
        let authenticator = try await service.addAuthenticator(session: session, configuration)
        return ControlMCPServer(
            service: service, session: session, authenticator: authenticator, additionalTools: additionalTools)
    }

    /// Every tool, each with a JSON Schema of its arguments: the service's, then the embedder's.
    public var tools: [Tool] {
        Self.serviceTools + additionalTools.map(\.tool)
    }

    /// Registers the tools on `server` (`tools/list` and `tools/call`).
    ///
    /// - Parameter server: an MCP server with the tools capability.
    public func register(on server: Server) async {
        let tools = tools
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: tools) }
        await server.withMethodHandler(CallTool.self) { call in
            await self.call(call.name, arguments: call.arguments ?? [:])
        }
    }

    /// Serves the tools over `transport` until the client goes away: what `passkey mcp` does over
    /// standard input and output.
    ///
    /// - Parameters:
    ///   - transport: the MCP transport (`StdioTransport()`, an in-memory pair in a test, …).
    ///   - name: the server's name in the MCP handshake.
    ///   - version: its version.
    /// - Throws: the transport's error when it cannot start.
    public func serve(over transport: any Transport, name: String, version: String) async throws {
        let server = Server(name: name, version: version, capabilities: .init(tools: .init(listChanged: false)))
        await register(on: server)
        try await server.start(transport: transport)
        await server.waitUntilCompleted()
    }

    /// Runs one tool.
    ///
    /// - Parameters:
    ///   - name: the tool's name.
    ///   - arguments: its arguments.
    /// - Returns: the tool's JSON answer, or a tool error naming the refusal.
    public func call(_ name: String, arguments: [String: Value]) async -> CallTool.Result {
        do {
            let arguments = ControlMCPArguments(arguments)
            let output: [UInt8]
            if let answer = try await serviceCall(name, arguments) {
                output = answer
            } else if let tool = additionalTools.first(where: { $0.tool.name == name }) {
                output = try await tool.run(arguments)
            } else {
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
        } catch let error as any CodedError {
            return Self.failure("\(error.codeName): \(error.reason)")
        } catch {
            return Self.failure("\(error)")
        }
    }

    /// Runs one of the service's tools; `nil` for another name.
    private func serviceCall(_ name: String, _ arguments: ControlMCPArguments) async throws -> [UInt8]? {
        switch name {
        case "create":
            let options = try arguments.decode(PublicKeyCredentialCreationOptionsJSON.self, "options")
            return WebAuthnJSON.encode(
                try await service.create(
                    session: session, authenticator: authenticator, options: options, origin: try arguments.origin()))
        case "get":
            let options = try arguments.decode(PublicKeyCredentialRequestOptionsJSON.self, "options")
            return try await service.get(
                session: session, authenticator: authenticator, options: WebAuthnJSON.encode(options),
                origin: try arguments.origin(), choosing: try arguments.choice()
            ).json
        case "list":
            let rpID = arguments.string("rpId")
            let credentials = try await service.credentials(session: session, authenticator: authenticator)
            return WebAuthnJSON.encode(credentials.filter { rpID == nil || $0.rpId == rpID })
        case "delete":
            try await service.removeCredential(
                session: session, authenticator: authenticator, credentialID: try arguments.bytes("credentialId"))
            return Array(#"{"deleted":true}"#.utf8)
        case "events":
            let after = max(0, Int(arguments.number("after") ?? 0))
            let events = try await service.eventLog(session: session).events(after: after)
            return WebAuthnJSON.encode(EventsOutput(events: events, last: events.last?.seq ?? after))
        case "conditional":
            let pick = try await service.pickConditional(
                session: session, authenticator: authenticator, choosing: try arguments.choice(),
                timeout: .milliseconds(Int(arguments.number("timeout") ?? 10_000)))
            return WebAuthnJSON.encode(pick)
        case "signup":
            let user = try await user(arguments)
            let result = try await service.signUp(
                session: session, user: user, email: arguments.string("email"), name: arguments.string("name"),
                username: arguments.string("username"), phone: arguments.string("phone"))
            return WebAuthnJSON.encode(UserOutput(userId: user, result: result))
        case "login":
            let user = try await user(arguments)
            let result = try await service.logIn(session: session, user: user, choosing: try arguments.choice())
            return WebAuthnJSON.encode(UserOutput(userId: user, result: result))
        case "enroll":
            return WebAuthnJSON.encode(
                try await service.enroll(session: session, user: try arguments.required("userId")))
        case "token":
            return WebAuthnJSON.encode(
                try await service.token(
                    session: session, user: try arguments.required("userId"), audience: arguments.string("audience"),
                    scope: arguments.string("scope")))
        case "logout":
            return WebAuthnJSON.encode(
                try await service.logOut(
                    session: session, user: try arguments.required("userId"), revoke: arguments.bool("revoke") ?? true))
        default:
            return nil
        }
    }

    /// The user a flow is for: `userId`, or a new user of `tenant` whose passkeys live in this
    /// server's authenticator.
    private func user(_ arguments: ControlMCPArguments) async throws -> String {
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
    private struct EventsOutput: Encodable {
        let events: [ControlEvent]
        let last: Int
    }

    private struct UserOutput: Encodable {
        let userId: String
        let result: SessionResult
    }
}
