import ArgumentParser
import Auth0Passkeys
import PasskeyKit

extension Passkey {
    /// `passkey api`: call a protected API with the session's access token.
    struct API: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "api",
            abstract: "Call a protected API with the session's access token; print its answer.",
            discussion: """
                Sends METHOD URL with Authorization: Bearer <token>; for a DPoP session (login --dpop), with \
                Authorization: DPoP <token> and a DPoP proof carrying ath, signed with the session's key (sent again \
                once with the API's nonce when it answers use_dpop_nonce). With --audience (and --scope), the token \
                is one for that API, exchanged from the refresh token. An error status prints the API's error and \
                exits 1. With -v the trace shows neither the token nor the proof.
                """)

        @OptionGroup var auth0: Auth0Options

        @Argument(help: "GET, POST, PATCH or DELETE.")
        var method: String

        @Argument(help: "The URL (https, or http to a loopback address).")
        var url: String

        @Option(help: "A JSON body to send.")
        var data: String?

        func run() async throws {
            try await runningFlow("api", auth0) { user in
                guard let verb = HTTPRequest.Method(rawValue: method.uppercased()) else {
                    throw FlowFailure(
                        step: "api", code: "bad_method",
                        description: "\(method) is not one of GET, POST, PATCH, DELETE",
                        hint: "use GET, POST, PATCH or DELETE")
                }
                let response: HTTPResponse
                do {
                    response = try await user.callAPI(
                        verb, url, audience: auth0.audience, scope: auth0.scope, body: data.map { Array($0.utf8) })
                } catch let error as TransportError {
                    throw FlowFailure(
                        step: "api", code: error.code.rawValue, description: "no answer from \(url): \(error.reason)",
                        hint: "is the API running and the URL right?")
                }
                return try APIOutcome(checking: response)
            }
        }
    }
}
