import ArgumentParser
import Foundation
import MCP
import PasskeyAuthenticator

extension Passkey {
    /// `passkey mcp`: the control tools over MCP on standard input and output.
    struct MCPServer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mcp",
            abstract: "Serve MCP over stdio: tools to create, use, list, delete, inspect and verify passkeys, "
                + "and Auth0 virtual-user flows.",
            discussion: "For an agent testing an app. The passkeys live in the store (--store, PASSKEY_STORE, ...).")

        @OptionGroup var store: StoreOptions

        @Option(help: "The authenticator profile of new passkeys.")
        var profile = "platform"

        func run() async throws {
            let (directory, custody) = try await reportingRefusals { () async throws(WebAuthnClientError) in
                (try store.directory(), try await store.keys.tokenCustody(ProcessInfo.processInfo.environment))
            }
            let tools = try await PasskeyMCP.start(store: directory, profile: profile, custody: custody)
            let server = Server(
                name: "passkey", version: Passkey.configuration.version,
                capabilities: .init(tools: .init(listChanged: false)))
            await tools.register(on: server)
            try await server.start(transport: StdioTransport())
            await server.waitUntilCompleted()
        }
    }
}
