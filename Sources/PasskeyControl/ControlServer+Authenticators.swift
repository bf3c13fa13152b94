import Hummingbird
import NIOCore
import PasskeyAuthenticator
import WebAuthn

extension ControlServer {
    /// The virtual-authenticator commands (WebAuthn L3 §11.2–§11.9) and the ceremonies.
    func addAuthenticatorRoutes(to group: RouterGroup<ControlRequestContext>) {
        addBridgeCommands(to: group)
        group.post { request, context in
            let session = try context.parameters.require("session")
            let configuration = try VirtualAuthenticatorConfiguration(
                parameters: await request.decode(as: [String: JSONValue].self, context: context))
            return ControlValue(try await service.addAuthenticator(session: session, configuration))
        }
        group.delete(":authenticator") { _, context in
            try await service.removeAuthenticator(
                session: context.parameters.require("session"), context.parameters.require("authenticator"))
            return ControlValue.null
        }
        group.post(":authenticator/credential") { request, context in
            let (session, id) = try Self.ids(context)
            let configuration = try await service.authenticator(session: session, id).configuration
            let parameters = try CredentialParameters(
                parameters: await request.decode(as: [String: JSONValue].self, context: context), for: configuration)
            try await service.addCredential(session: session, authenticator: id, parameters)
            return ControlValue.null
        }
        group.get(":authenticator/credentials") { _, context in
            let (session, id) = try Self.ids(context)
            return ControlValue(try await service.credentials(session: session, authenticator: id))
        }
        group.delete(":authenticator/credentials") { _, context in
            let (session, id) = try Self.ids(context)
            try await service.removeAllCredentials(session: session, authenticator: id)
            return ControlValue.null
        }
        group.delete(":authenticator/credentials/:credential") { _, context in
            let (session, id) = try Self.ids(context)
            try await service.removeCredential(
                session: session, authenticator: id, credentialID: context.parameters.credentialID("credential"))
            return ControlValue.null
        }
        group.post(":authenticator/credentials/:credential/props") { request, context in
            let (session, id) = try Self.ids(context)
            let credentialID = try context.parameters.credentialID("credential")
            let properties = try CredentialProperties(
                parameters: await request.decode(as: [String: JSONValue].self, context: context))
            try await service.setCredentialProperties(
                session: session, authenticator: id, credentialID: credentialID,
                backupEligibility: properties.backupEligibility, backupState: properties.backupState,
                signCount: properties.signCount)
            return ControlValue.null
        }
        group.post(":authenticator/credentials/:credential/export") { _, context in
            let (session, id) = try Self.ids(context)
            return ControlValue(
                try await service.exportCredential(
                    session: session, authenticator: id, credentialID: context.parameters.credentialID("credential")))
        }
        group.post(":authenticator/uv") { request, context in
            let (session, id) = try Self.ids(context)
            guard
                let verified = try VirtualAuthenticatorConfiguration.bool(
                    await request.decode(as: [String: JSONValue].self, context: context), "isUserVerified")
            else {
                throw ControlError.invalidArgument("isUserVerified is required")
            }
            try await service.setUserVerified(session: session, id, verified)
            return ControlValue.null
        }
        group.post(":authenticator/create") { request, context in
            let (session, id) = try Self.ids(context)
            let body = try await Self.ceremonyBody(
                CeremonyRequest<PublicKeyCredentialCreationOptionsJSON>.self, request, context)
            let (origin, topOrigin) = try body.origins()
            return ControlValue(
                try await service.create(
                    session: session, authenticator: id, options: body.options, origin: origin, topOrigin: topOrigin))
        }
        group.post(":authenticator/get") { request, context in
            let (session, id) = try Self.ids(context)
            let body = try await Self.ceremonyBody(CeremonyRequest<JSONText>.self, request, context)
            let (origin, topOrigin) = try body.origins()
            let assertion = try await service.get(
                session: session, authenticator: id, options: body.options.bytes, origin: origin, topOrigin: topOrigin,
                choosing: try body.choice())
            return ControlValue(JSONText(assertion.json))
        }
    }

    /// The page bridge's script (``ControlService/bridgeScript(session:authenticator:endpoint:origins:socket:policy:)``;
    /// `?relax=R` relaxes a ``BridgePolicy`` rule), a relay's capability
    /// (``ControlService/bridgeRelay(session:authenticator:origins:)``) and the
    /// test's pick for a page's conditional get.
    func addBridgeCommands(to group: RouterGroup<ControlRequestContext>) {
        group.get(":authenticator/bridge.js") { request, context in
            let (session, id) = try Self.ids(context)
            let origins = try Self.origins(request.uri.queryParameters[values: "origin"].map(String.init))
            let policy = try BridgePolicy(relaxing: request.uri.queryParameters[values: "relax"].map(String.init))
            let authority = try Self.authority(request)
            // The socket unless the test asks for fetch alone (`?channel=fetch`).
            let socket = request.uri.queryParameters["channel"] == "fetch" ? nil : "ws://\(authority)/bridge/socket"
            let script = try await service.bridgeScript(
                session: session, authenticator: id, endpoint: "http://\(authority)/bridge", origins: origins,
                socket: socket, policy: policy)
            return Response(
                status: .ok,
                headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: script)))
        }
        group.post(":authenticator/relay") { request, context in
            let (session, id) = try Self.ids(context)
            let body = try await request.decode(as: RelayRequest.self, context: context)
            let authority = try Self.authority(request)
            let capability = try await service.bridgeRelay(
                session: session, authenticator: id, origins: try Self.origins(body.origins ?? []))
            return ControlValue(
                RelayGrant(
                    capability: capability, endpoint: "http://\(authority)/bridge",
                    socket: "ws://\(authority)/bridge/socket"))
        }
        group.post(":authenticator/conditional") { request, context in
            let (session, id) = try Self.ids(context)
            let body = try await request.decode(as: [String: JSONValue].self, context: context)
            for key in body.keys where !["credentialId", "user", "timeout"].contains(key) {
                throw ControlError.invalidArgument("\(key) is not a member of a conditional pick")
            }
            let credentialID = try body["credentialId"]?.stringValue.map { (text) throws(ControlError) in
                do {
                    return try Base64URL(string: text)
                } catch {
                    throw ControlError.invalidArgument("credentialId is not base64url")
                }
            }
            var timeout = 10_000.0
            if let given = body["timeout"] {
                guard case .number(let milliseconds) = given, (0...600_000).contains(milliseconds) else {
                    throw ControlError.invalidArgument("timeout is a number of milliseconds up to 600000")
                }
                timeout = milliseconds
            }
            return ControlValue(
                try await service.pickConditional(
                    session: session, authenticator: id,
                    choosing: accountChoice(
                        user: body["user"]?.stringValue, credentialID: credentialID, refusal: "invalid argument"),
                    timeout: .milliseconds(Int(timeout))))
        }
    }

    /// The session and authenticator IDs of the path.
    static func ids(_ context: ControlRequestContext) throws -> (session: String, authenticator: String) {
        (try context.parameters.require("session"), try context.parameters.require("authenticator"))
    }
}

/// Set Credential Properties' parameters (WebAuthn L3 §11.9).
struct CredentialProperties {
    var backupEligibility: Bool?
    var backupState: Bool?
    var signCount: UInt32?

    init(parameters: [String: JSONValue]) throws(ControlError) {
        for key in parameters.keys where !["backupEligibility", "backupState", "signCount"].contains(key) {
            throw .invalidArgument("\(key) is not a credential property")
        }
        backupEligibility = try VirtualAuthenticatorConfiguration.bool(parameters, "backupEligibility")
        backupState = try VirtualAuthenticatorConfiguration.bool(parameters, "backupState")
        signCount = try CredentialParameters.signCount(parameters)
    }
}

extension ControlServer {
    /// Page origins from a request (`?origin=`, a relay's `origins`); `nil` (any) when none.
    static func origins(_ texts: [String]) throws(ControlError) -> [WebOrigin]? {
        let origins = try texts.map { (text) throws(ControlError) in
            do {
                return try WebOrigin(text)
            } catch {
                throw ControlError.invalidArgument("origin: \(error)")
            }
        }
        return origins.isEmpty ? nil : origins
    }

    /// The `Host` a request reached the server at, for the bridge's URLs.
    static func authority(_ request: Request) throws(ControlError) -> String {
        guard let authority = request.head.authority else {
            throw ControlError.invalidArgument("the request has no Host")
        }
        return authority
    }
}

/// `POST …/authenticator/{a}/relay`'s body: the page origins the relay may state.
struct RelayRequest: Decodable, Sendable {
    let origins: [String]?
}

/// A relay's capability and where it reaches the bridge.
struct RelayGrant: Encodable, Sendable {
    let capability: String
    /// `http://HOST:PORT/bridge` (`POST …/relay`).
    let endpoint: String
    /// `ws://HOST:PORT/bridge/socket`.
    let socket: String
}
