import ArgumentParser
import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyKit

extension Passkey {
    /// `passkey seed`: users who already hold a passkey of the store, made through the Management
    /// API with no signup ceremony, as a test suite seeds its tenant (auth0-passkey-api.md §15).
    struct SeedUsers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "seed",
            abstract: "Seed users who already hold a passkey of the store (Auth0 Management API).",
            discussion: """
                Gets a Management API token for the machine-to-machine application (--m2m-client-id, else \
                $AUTH0_M2M_CLIENT_ID) with its client secret, read from $AUTH0_CLIENT_SECRET or from the first \
                line of --client-secret-file, never from a flag's value; creates the user in the connection (or \
                finds the one with that email), creates a passkey in the store for the tenant's RP ID and attaches \
                it to the user. No session is started: `passkey login` (--user EMAIL to pick among several) then \
                logs in with it. With --count N, seeds N users whose emails are derived from --email: \
                ada+1@example.com, ada+2@example.com, ….
                """)

        @OptionGroup var auth0: Auth0Options
        @OptionGroup var device: DeviceOptions

        @Option(help: "The user's email; with --count, the base the emails are derived from.")
        var email: String

        @Option(help: "The user's full name.")
        var name: String?

        @Option(help: "How many users to seed.")
        var count = 1

        @Option(
            name: .customLong("m2m-client-id"),
            help: "The machine-to-machine application's client ID ($AUTH0_M2M_CLIENT_ID).")
        var m2mClientID: String?

        @Option(
            name: .customLong("client-secret-file"),
            help: "A file whose first line is the m2m client secret (default: $AUTH0_CLIENT_SECRET).")
        var clientSecretFile: String?

        func validate() throws {
            guard count > 0 else { throw ValidationError("--count is at least 1") }
            guard Self.split(email) != nil else { throw ValidationError("--email is an address: name@domain") }
        }

        func run() async throws {
            let environment = ProcessInfo.processInfo.environment
            try await runningFlow("seed", auth0) { user in
                let credentials = try clientCredentials(environment: environment)
                let management: ManagementAPI
                do {
                    management = try await user.tenant.managementAPI(
                        clientID: credentials.clientID, clientSecret: credentials.secret)
                } catch PasskeyFlowError.authentication(let error) where !error.isNetworkError {
                    throw FlowFailure(
                        step: "seed", code: error.code.rawValue, description: error.reason, status: error.statusCode,
                        hint: "the tenant refused the m2m client: check --m2m-client-id and its secret "
                            + "(AUTH0_CLIENT_SECRET or --client-secret-file)")
                }
                let device = try await device.device(store: auth0.store.open())
                var seeded: [SeedResult] = []
                for email in emails {
                    seeded.append(
                        try await user.seed(
                            email: email, name: name, rpID: seeded.first?.rpID, on: device, using: management))
                }
                return SeedOutcome(seeded)
            }
        }

        /// `--email`, or with `--count N` the N emails `local+i@domain`.
        var emails: [String] {
            guard count > 1, let (local, domain) = Self.split(email) else { return [email] }
            return (1...count).map { "\(local)+\($0)@\(domain)" }
        }

        /// The local part and the domain of an email; `nil` without both.
        static func split(_ email: String) -> (String, String)? {
            guard let at = email.lastIndex(of: "@"), at != email.startIndex, email.index(after: at) != email.endIndex
            else { return nil }
            return (String(email[..<at]), String(email[email.index(after: at)...]))
        }

        /// The m2m client ID (`--m2m-client-id`, else `AUTH0_M2M_CLIENT_ID`) and its secret
        /// (`--client-secret-file`, else `AUTH0_CLIENT_SECRET`).
        func clientCredentials(environment: [String: String]) throws -> (clientID: String, secret: ClientSecret) {
            guard let clientID = m2mClientID ?? environment["AUTH0_M2M_CLIENT_ID"].flatMap({ $0.isEmpty ? nil : $0 })
            else {
                throw FlowFailure(
                    step: "seed", code: "no_m2m_client_id", description: "no machine-to-machine client ID is given",
                    hint: "pass --m2m-client-id ID or set AUTH0_M2M_CLIENT_ID (`passkey tenant serve --json` prints "
                        + "m2m_client_id)")
            }
            if let clientSecretFile {
                return (clientID, ClientSecret(try SecretFile.firstLine(clientSecretFile, "--client-secret-file")))
            }
            guard let secret = environment["AUTH0_CLIENT_SECRET"], !secret.isEmpty else {
                throw FlowFailure(
                    step: "seed", code: "no_client_secret", description: "no client secret is given",
                    hint: "set AUTH0_CLIENT_SECRET or pass --client-secret-file FILE (never on the command line)")
            }
            return (clientID, ClientSecret(secret))
        }
    }
}
