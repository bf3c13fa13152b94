import ArgumentParser
import Auth0Passkeys
import Foundation
import PasskeyKit

// What an Auth0 command prints on success: text for people, JSON with `--json`.
extension SignupOutcome: CommandOutput {}
extension LoginOutcome: CommandOutput {}
extension PasswordOutcome: CommandOutput {}
extension EnrollOutcome: CommandOutput {}
extension MethodsOutcome: CommandOutput {}
extension RenamedMethodOutcome: CommandOutput {}
extension DeletedMethodOutcome: CommandOutput {}
extension WhoamiOutcome: CommandOutput {}
extension TokenOutcome: CommandOutput {}
extension LogoutOutcome: CommandOutput {}
extension APIOutcome: CommandOutput {}
extension SeedOutcome: CommandOutput {}

/// Runs an Auth0 command: resolves the settings, runs `body` with the virtual user of the
/// session they name, and prints its outcome. Any failure is one line on standard error
/// (`{"error": …}` on standard output with `--json`) and exit status 1.
func runningFlow(
    _ step: String, _ options: Auth0Options, dpop: Bool = false,
    _ body: (VirtualUser) async throws -> some CommandOutput
) async throws {
    do {
        let user = try options.settings().user(logger: options.logger, usesDPoP: dpop)
        await user.credentialsManager.setPassphrasePrompt(
            SessionPassphrase.prompt(environment: ProcessInfo.processInfo.environment))
        printOutput(try await body(user), json: options.format.json)
    } catch {
        let failure = FlowFailure(step: step, error)
        if options.format.json {
            printJSON(["error": failure])
        } else {
            printError(failure.line)
        }
        throw ExitCode(1)
    }
}
