import ArgumentParser
import PasskeyAuthenticator
import WebAuthn

extension Passkey {
    /// `passkey create`: `navigator.credentials.create()` from a terminal.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a passkey from PublicKeyCredentialCreationOptionsJSON; print RegistrationResponseJSON.",
            discussion: "The response is one line of JSON when standard output is a pipe or a file, or with --json; "
                + "on a terminal it is decoded field by field, as `passkey inspect` shows it. A refusal prints "
                + "nothing on standard output and one line on standard error that starts with the WebAuthn error: "
                + "NotAllowedError, InvalidStateError, SecurityError, NotSupportedError or SyntaxError.")

        @OptionGroup var authenticator: AuthenticatorOptions

        @Option(help: "The authenticator profile.")
        var profile: AuthenticatorProfile = .platform

        @Option(
            name: .customLong("enterprise-rp-id"),
            help: "An RP ID the authenticator gives enterprise attestation to when it asks (repeatable; cdp).")
        var enterpriseRPIDs: [String] = []

        @OptionGroup var format: OutputOptions

        func run() async throws {
            var profile = profile
            profile.enterpriseAttestationRPIDs = enterpriseRPIDs
            let response = try await reportingRefusals { () async throws(WebAuthnClientError) in
                let options = try authenticator.decodeOptions(PublicKeyCredentialCreationOptionsJSON.self)
                let (origin, topOrigin) = try authenticator.origins()
                let software = try await authenticator.authenticator(profile: profile)
                return try await authenticator.client(software).create(
                    options, origin: origin, topOrigin: topOrigin)
            }
            printCeremonyResponse(response, json: format.json) {
                "Created passkey \(response.id).\n" + (try Report(registration: response)).text
            }
        }
    }
}
