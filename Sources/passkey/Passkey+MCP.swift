import ArgumentParser
import Foundation
import MCP
import PasskeyAuthenticator
import PasskeyControl

extension Passkey {
    /// `passkey mcp`: the control tools over MCP on standard input and output.
    struct MCPServer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mcp",
            abstract: "Serve MCP over stdio: tools to create, use, list, delete, inspect and verify passkeys, "
                + "and Auth0 virtual-user flows.",
            discussion: "For an agent testing an app. The passkeys live in the store (--store, PASSKEY_STORE, ...).")

        @OptionGroup var store: StoreOptions

        @OptionGroup var relatedOrigins: RelatedOriginsOptions

        @OptionGroup var trust: CABundleOptions

        @Option(help: "The authenticator profile of new passkeys.")
        var profile = "platform"

        func run() async throws {
            let (directory, custody) = try await reportingRefusals { () async throws(WebAuthnClientError) in
                (try store.directory(), try await store.keys.tokenCustody(ProcessInfo.processInfo.environment))
            }
            let tools = try await PasskeyMCP.start(
                store: directory, profile: profile, custody: custody,
                transport: trust.transport(ControlService.transportConfiguration),
                relatedOrigins: relatedOrigins.fetcher(trust))
            try await tools.serve(over: StdioTransport(), name: "passkey", version: BuildInfo.version)
        }
    }
}
