import ArgumentParser
import PasskeyAuthenticator
import WebAuthn

extension Passkey {
    /// `passkey get`: `navigator.credentials.get()` from a terminal.
    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Sign with a passkey for PublicKeyCredentialRequestOptionsJSON; print AuthenticationResponseJSON.",
            discussion: "With several matching passkeys, --credential or --user picks one; otherwise the most "
                + "recently created is used. The response is printed and refusals are reported as for create.")

        @OptionGroup var authenticator: AuthenticatorOptions

        @Option(help: "The authenticator that answers: its extensions and UV (each passkey keeps its own counter).")
        var profile: AuthenticatorProfile = .platform

        @Option(help: "Use the passkey of this user (user.name) when several match.")
        var user: String?

        @Option(help: "Use this passkey (credential ID, base64url) when several match.")
        var credential: String?

        @OptionGroup var format: OutputOptions

        func validate() throws {
            if user != nil, credential != nil {
                throw ValidationError("--user and --credential each pick a passkey; give one of them")
            }
        }

        func run() async throws {
            let assertion = try await reportingRefusals { () async throws(WebAuthnClientError) in
                // Decoded here so that malformed options are refused with this command's message,
                // then answered by the client's one JSON path, as the control server answers.
                let options = try authenticator.decodeOptions(PublicKeyCredentialRequestOptionsJSON.self)
                let (origin, topOrigin) = try authenticator.origins()
                let software = try await authenticator.authenticator(profile: profile, accountChoice: try choice())
                return try await authenticator.client(software).get(
                    json: WebAuthnJSON.encode(options), origin: origin, topOrigin: topOrigin)
            }
            printCeremonyResponse(JSONText(assertion.json), json: format.json) {
                let response = try assertion.response()
                return "Signed with passkey \(response.id).\n" + (try Report(authentication: response)).text
            }
        }

        private func choice() throws(WebAuthnClientError) -> AccountChoice {
            if let user {
                return .user(user)
            }
            if let credential {
                do {
                    return .credential(try Base64URL.decode(credential))
                } catch {
                    throw WebAuthnClientError(.syntax, "--credential: \(error.reason)")
                }
            }
            return .mostRecent
        }
    }
}
