import ArgumentParser

extension Passkey {
    /// `passkey api`: call a protected API with the session's access token.
    struct API: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "api",
            abstract: "Call a protected API with the session's access token; print its answer.",
            discussion: """
                Sends METHOD URL with Authorization: Bearer <token>. With --audience (and --scope), the token is one \
                for that API, exchanged from the refresh token. An error status prints the API's error and exits 1.
                """)

        @OptionGroup var auth0: Auth0Options

        @Argument(help: "GET, POST, PATCH or DELETE.")
        var method: String

        @Argument(help: "The URL (https, or http to a loopback address).")
        var url: String

        @Option(help: "A JSON body to send.")
        var data: String?

        func run() async throws {
            try await runningFlow("api", auth0) { flows in
                try await flows.api(
                    method: method, url: url, audience: auth0.audience, scope: auth0.scope, body: data)
            }
        }
    }
}
