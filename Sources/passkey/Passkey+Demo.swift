import ArgumentParser
import Auth0Passkeys
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
                My Account, lists the passkeys, renews the tokens, calls the sample protected API and logs out \
                with revocation. Exits 0 only if every step succeeded; removes everything it made. With --keep, \
                the tenant keeps running (until Ctrl-C) and the commands to go on by hand are printed.
                """)

        @Flag(help: "Keep the tenant running afterwards and print how to use it from the CLI.")
        var keep = false

        @Flag(name: .shortAndLong, help: "Show the HTTP exchanges on standard error, secrets redacted.")
        var verbose = false

        func run() async throws {
            let scratch = try ScratchDirectory("passkey-demo")
            defer { scratch.remove() }
            let tenant = try await PasskeyTenant(database: scratch.path + "/tenant.sqlite")
            let served = try await ServedTenant.start(tenant)
            let script = try DemoScript(served: served, directory: scratch.path, verbose: verbose)
            do {
                try await script.run()
            } catch {
                await served.stop()
                printError("demo failed at step \(script.steps.current): \(FlowFailure(step: "demo", error).line)")
                throw ExitCode(1)
            }
            guard keep else {
                await served.stop()
                print("\nAll \(script.steps.current) steps succeeded; the tenant stopped and its files were removed.")
                return
            }
            print(script.continuation)
            fflush(nil)  // all streams: the steps show as they happen, even through a pipe
            try await served.wait()
        }
    }
}
