import ArgumentParser
import WebAuthn

extension Passkey {
    /// `passkey inspect`: decode a WebAuthn response or one of its parts.
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decode a WebAuthn response, attestation object, authenticator data or client data.",
            discussion: """
                Reads a RegistrationResponseJSON or AuthenticationResponseJSON, or a bare attestationObject,
                authenticatorData or clientDataJSON in base64url or hex, and prints every field by name.
                """
        )

        @Argument(help: "The file to read, or - for standard input.")
        var file: String = "-"

        @OptionGroup var format: OutputOptions

        func run() throws {
            try reportingFailures {
                let report = try InspectedInput(Input.read(file)).report()
                print(format.json ? report.json : report.text)
            }
        }
    }
}
