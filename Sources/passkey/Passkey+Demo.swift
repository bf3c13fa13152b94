import ArgumentParser
import Auth0Passkeys
import BlockingIO
import Foundation
import PasskeyTenant
import WebAuthn

extension Passkey {
    /// `passkey demo`: the whole story against a local tenant, step by step.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the whole passkey story against a local tenant, step by step.",
            discussion: """
                Starts the local Auth0-compatible tenant in this process on a free loopback port, with a temporary \
                database, authenticator stores and session, then: signs a user up with a passkey, decodes its \
                attestation, logs in, decodes the ID token, enrolls a second passkey from a second device through \
                My Account, lists the passkeys, renews the tokens, calls the sample protected API, logs out \
                with revocation, and logs in again on the tenant's login page (Web Auth) in a headless Chromium. Exits 0 only if every step succeeded; removes everything it made. With --keep, \
                the tenant keeps running (until Ctrl-C) and the commands to go on by hand are printed. With --json, \
                the steps are not told: one JSON object says which ran (and, with --keep, the environment to go on).
                """)

        @Flag(help: "Keep the tenant running afterwards and print how to use it from the CLI.")
        var keep = false

        @Flag(name: .shortAndLong, help: "Show the HTTP exchanges on standard error, secrets redacted.")
        var verbose = false

        @OptionGroup var format: OutputOptions

        func run() async throws {
            let scratch = try ScratchDirectory("passkey-demo")
            defer { scratch.remove() }
            var configuration = TenantConfiguration()
            configuration.pageConnectSources = [Passkey.Tenant.Serve.loopbackConnectSource]
            let tenant = try await PasskeyTenant(
                configuration: configuration, database: scratch.path + "/tenant.sqlite")
            let served = try await ServedTenant.start(tenant)
            let script = try DemoScript(
                served: served, directory: scratch.path, verbose: verbose, narrating: !format.json)
            do {
                try await script.run()
            } catch {
                await served.stop()
                let failure = FlowFailure(step: "demo", error)
                if format.json {
                    printJSON(Outcome(steps: script.steps.titles, failedStep: script.steps.current, error: failure))
                } else {
                    printError("demo failed at step \(script.steps.current): \(failure.line)")
                }
                throw ExitCode(1)
            }
            guard keep else {
                await served.stop()
                printOutput(Outcome(steps: script.steps.titles), json: format.json)
                return
            }
            if format.json {
                printJSON(Outcome(steps: script.steps.titles, environment: script.environment))
            } else {
                print(script.continuation)
            }
            fflush(nil)  // all streams: the steps show as they happen, even through a pipe
            try await served.wait()
        }

        /// What `demo` prints at the end: the steps that ran, and the failure or (with `--keep`) the
        /// environment to go on by hand (snake_case keys, as the other Auth0 commands print).
        struct Outcome: CommandOutput {
            let steps: [String]
            var failedStep: Int?
            var error: FlowFailure?
            var environment: [String: String]?

            enum CodingKeys: String, CodingKey {
                case steps, error, environment
                case failedStep = "failed_step"
            }

            init(
                steps: [String], failedStep: Int? = nil, error: FlowFailure? = nil,
                environment: KeyValuePairs<String, String>? = nil
            ) {
                self.steps = steps
                self.failedStep = failedStep
                self.error = error
                self.environment = environment.map { Dictionary(uniqueKeysWithValues: Array($0)) }
            }

            var text: String {
                "\nAll \(steps.count) steps succeeded; the tenant stopped and its files were removed."
            }
        }
    }
}
