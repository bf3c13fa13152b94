import Foundation
import MCP
import PasskeyControl
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

@testable import passkey

/// `passkey mcp`'s tools through the MCP SDK's own client, connected in process.
@Suite struct MCPServerTests {
    /// Runs `body` with a client connected to the tools over a fresh store.
    private func withTools(_ body: @Sendable (Client) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let tools = try await PasskeyMCP.start(store: directory.appending("store"), profile: "platform")
        let server = Server(name: "passkey", version: "test", capabilities: .init(tools: .init(listChanged: false)))
        await tools.register(on: server)
        let (clientTransport, serverTransport) = await InMemoryTransport.createConnectedPair()
        try await server.start(transport: serverTransport)
        let client = Client(name: "test", version: "1")
        _ = try await client.connect(transport: clientTransport)
        try await body(client)
        await client.disconnect()
        await server.stop()
    }

    private static func options(_ json: String) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(json.utf8))
    }

    private static func text(_ content: [Tool.Content]) -> String {
        content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
    }

    @Test func everyToolHasAnObjectSchema() async throws {
        try await withTools { client in
            let (tools, _) = try await client.listTools()
            #expect(
                Set(tools.map(\.name)) == [
                    "create", "get", "list", "delete", "events", "conditional", "inspect", "verify_registration",
                    "verify_authentication", "signup", "login", "enroll", "token", "logout",
                ])
            for tool in tools {
                #expect(tool.inputSchema.objectValue?["type"] == "object", "\(tool.name)")
            }
        }
    }

    @Test func createGetListInspectVerifyAndDelete() async throws {
        try await withTools { client in
            let challenge = Base64URL.encode(SecureRandom.bytes(32))
            let creation = try Self.options(
                #"{"rp":{"id":"example.com","name":"Example"},"user":{"id":"AQID","name":"ada","displayName":"Ada"},"challenge":"\#(challenge)","pubKeyCredParams":[{"type":"public-key","alg":-7}]}"#
            )
            let created = try await client.callTool(
                name: "create", arguments: ["origin": "https://example.com", "options": creation])
            #expect(created.isError == false, "\(Self.text(created.content))")
            let registration = try WebAuthnJSON.decode(
                RegistrationResponseJSON.self, from: Array(Self.text(created.content).utf8))

            let verified = try await client.callTool(
                name: "verify_registration",
                arguments: [
                    "response": .string(Self.text(created.content)), "challenge": .string(challenge),
                    "origin": "https://example.com", "rpId": "example.com",
                ])
            #expect(verified.isError == false, "\(Self.text(verified.content))")
            #expect(Self.text(verified.content).contains(registration.id))

            let request = try Self.options(#"{"rpId":"example.com","challenge":"\#(challenge)"}"#)
            let got = try await client.callTool(
                name: "get", arguments: ["origin": "https://example.com", "options": request])
            #expect(got.isError == false)
            #expect(Self.text(got.content).contains(registration.id))

            let publicKey = try #require(
                try JSONDecoder().decode(Value.self, from: Data(Self.text(verified.content).utf8))
                    .objectValue?["publicKey"])
            let checked = try await client.callTool(
                name: "verify_authentication",
                arguments: [
                    "response": .string(Self.text(got.content)), "challenge": .string(challenge),
                    "origin": "https://example.com", "rpId": "example.com", "publicKey": publicKey,
                    "userHandle": "AQID",
                ])
            #expect(checked.isError == false, "\(Self.text(checked.content))")
            let replayed = try await client.callTool(
                name: "verify_authentication",
                arguments: [
                    "response": .string(Self.text(got.content)), "challenge": "AAAA", "origin": "https://example.com",
                    "rpId": "example.com", "publicKey": publicKey,
                ])
            #expect(replayed.isError == true)

            let refused = try await client.callTool(
                name: "get", arguments: ["origin": "https://evil.example", "options": request])
            #expect(refused.isError == true)
            #expect(Self.text(refused.content).hasPrefix("SecurityError: "))

            let inspected = try await client.callTool(
                name: "inspect", arguments: ["input": .string(Self.text(created.content))])
            #expect(inspected.isError == false)
            #expect(Self.text(inspected.content).contains("\"fmt\""), "\(Self.text(inspected.content).prefix(200))")

            let listed = try await client.callTool(name: "list", arguments: ["rpId": "example.com"])
            #expect(Self.text(listed.content).contains(registration.id))
            let deleted = try await client.callTool(
                name: "delete", arguments: ["credentialId": .string(registration.id)])
            #expect(deleted.isError == false)
            let empty = try await client.callTool(name: "list", arguments: [:])
            #expect(Self.text(empty.content) == "[]")

            let malformed = try await client.callTool(name: "create", arguments: ["origin": "https://example.com"])
            #expect(Self.text(malformed.content).hasPrefix("SyntaxError: "))
        }
    }

    @Test func aVirtualUserSignsUpAndLogsInAtATenant() async throws {
        let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
        try await tenant.serving { endpoint in
            try await withTools { client in
                let description: Value = ["clientId": .string(tenant.clientID), "baseURL": .string(endpoint.baseURL)]
                let signup = try await client.callTool(
                    name: "signup", arguments: ["tenant": description, "email": "ada@example.com"])
                #expect(signup.isError == false, "\(Self.text(signup.content))")
                let user = try #require(
                    try JSONDecoder().decode(Value.self, from: Data(Self.text(signup.content).utf8))
                        .objectValue?["userId"]?.stringValue)
                let login = try await client.callTool(name: "login", arguments: ["userId": .string(user)])
                #expect(login.isError == false, "\(Self.text(login.content))")
                #expect(Self.text(login.content).contains("ada@example.com"))
                let logout = try await client.callTool(name: "logout", arguments: ["userId": .string(user)])
                #expect(Self.text(logout.content).contains("\"revoked\":true"))
                let token = try await client.callTool(name: "token", arguments: ["userId": .string(user)])
                #expect(token.isError == true)
            }
        }
    }
}
