import Foundation
import MCP
import PasskeyControl
import Testing
import WebAuthn

/// The control service over MCP, served by an embedding process through the library alone and
/// driven by the MCP SDK's own client over an in-memory transport.
@Suite struct ControlMCPServerTests {
    /// A tool of the embedder's own, served beside the service's.
    static let echo = ControlMCPTool(
        "echo", "Answers its text as a JSON object.", ["text": ControlMCPTool.string("Any text.")],
        required: ["text"], readOnly: true
    ) { arguments in
        Array(try JSONEncoder().encode(["echo": try arguments.required("text")]))
    }

    private static func text(_ content: [Tool.Content]) -> String {
        content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
    }

    @Test func aRegistrationAndAnAssertionOverMCPVerifyAsARelyingPartyWould() async throws {
        let tools = try await ControlMCPServer.start(
            authenticator: VirtualAuthenticatorConfiguration(parameters: ["softpasskey:profile": .string("platform")]),
            additionalTools: [Self.echo])
        let (clientTransport, serverTransport) = await InMemoryTransport.createConnectedPair()
        // Connected first, the server's end queues the client's messages until it reads them.
        try await serverTransport.connect()
        let serving = Task { try await tools.serve(over: serverTransport, name: "embedder", version: "1") }
        let client = Client(name: "test", version: "1")
        _ = try await client.connect(transport: clientTransport)

        let (listed, _) = try await client.listTools()
        #expect(listed.map(\.name).contains("create") && listed.map(\.name).last == "echo")

        let challenge = SecureRandom.bytes(32)
        let creation: Value = [
            "rp": ["id": "example.com", "name": "Example"],
            "user": ["id": "AQID", "name": "ada", "displayName": "Ada"],
            "challenge": .string(Base64URL.encode(challenge)),
            "pubKeyCredParams": [["type": "public-key", "alg": -7]],
        ]
        let created = try await client.callTool(
            name: "create", arguments: ["origin": "https://example.com", "options": creation])
        #expect(created.isError == false, "\(Self.text(created.content))")
        let registration = try RelyingParty(id: "example.com").verifyRegistration(
            try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: Array(Self.text(created.content).utf8)),
            challenge: challenge)

        let request: Value = ["rpId": "example.com", "challenge": .string(Base64URL.encode(challenge))]
        let got = try await client.callTool(
            name: "get", arguments: ["origin": "https://example.com", "options": request])
        #expect(got.isError == false, "\(Self.text(got.content))")
        let assertion = try WebAuthnJSON.decode(
            AuthenticationResponseJSON.self, from: Array(Self.text(got.content).utf8))
        _ = try RelyingParty(id: "example.com").verifyAuthentication(
            assertion, challenge: challenge, credential: registration.record())

        let refused = try await client.callTool(
            name: "get", arguments: ["origin": "https://evil.example", "options": request])
        #expect(refused.isError == true)
        #expect(Self.text(refused.content).hasPrefix("SecurityError: "))

        let echoed = try await client.callTool(name: "echo", arguments: ["text": "hello"])
        #expect(Self.text(echoed.content) == #"{"echo":"hello"}"#)
        let missing = try await client.callTool(name: "echo", arguments: [:])
        #expect(missing.isError == true)
        #expect(Self.text(missing.content).hasPrefix("SyntaxError: "))

        // The client going away ends the server.
        await client.disconnect()
        try await serving.value
    }
}
