import ArgumentParser
import Auth0Passkeys
import Foundation
import PasskeyKit

/// What an Auth0 command prints on success: text for people, JSON with `--json`.
protocol FlowOutput: Encodable {
    var text: String { get }
}

extension SignupOutcome: FlowOutput {}
extension LoginOutcome: FlowOutput {}
extension EnrollOutcome: FlowOutput {}
extension MethodsOutcome: FlowOutput {}
extension WhoamiOutcome: FlowOutput {}
extension TokenOutcome: FlowOutput {}
extension LogoutOutcome: FlowOutput {}
extension APIOutcome: FlowOutput {}

/// Runs an Auth0 command: resolves the settings, runs `body` with the virtual user of the
/// session they name, and prints its outcome. Any failure is one line on standard error
/// (`{"error": …}` on standard output with `--json`) and exit status 1.
func runningFlow(
    _ step: String, _ options: Auth0Options, _ body: (VirtualUser) async throws -> some FlowOutput
) async throws {
    do {
        let user = try options.settings().user(logger: options.logger)
        await user.credentialsManager.setPassphrasePrompt(
            SessionPassphrase.prompt(environment: ProcessInfo.processInfo.environment))
        let outcome = try await body(user)
        if options.json {
            printJSON(outcome)
        } else {
            print(outcome.text)
        }
    } catch {
        let failure = FlowFailure(step: step, error)
        if options.json {
            printJSON(["error": failure])
        } else {
            printError(failure.line)
        }
        throw ExitCode(1)
    }
}
