import ArgumentParser
import PasskeyAuthenticator
import PasskeyKit

/// What `signup` and `login` both take, and how both run: the tenant and store, the device, the
/// session's protection and `--web`, first; the token flags after the command's own options.
struct SessionFlowOptions: ParsableArguments {
    @OptionGroup var auth0: Auth0Options
    @OptionGroup var device: DeviceOptions
    @OptionGroup var protection: SessionProtectionOptions
    @OptionGroup var webLogin: WebLoginOptions

    /// Runs `step`: with `--web` on the tenant's login page (Web Auth), else natively with `native`
    /// on the store's device; either way the new session is then protected as asked.
    ///
    /// - Parameters:
    ///   - step: the command's name, for a failure.
    ///   - tokens: `--show-tokens` and `--dpop`.
    ///   - signUp: whether the page opens its signup screen.
    ///   - loginHint: the identifier the page pre-fills.
    ///   - choice: the passkey a started browser's autofill is answered with.
    ///   - native: the native flow, with the user, the store's device and whether to print the
    ///     tokens (`--show-tokens`, or `--json`).
    func run(
        _ step: String, tokens: TokenOptions, signUp: Bool, loginHint: String?, choosing choice: AccountChoice,
        native: @escaping (VirtualUser, VirtualDevice, _ showTokens: Bool) async throws -> some CommandOutput
    ) async throws {
        let showTokens = tokens.showTokens || auth0.format.json
        if webLogin.web {
            try await runningFlow(step, auth0, dpop: tokens.dpop) { user in
                let result = try await webLogin.logIn(
                    user, connection: auth0.connection, signUp: signUp, loginHint: loginHint, choosing: choice,
                    store: auth0.store, profile: device.profile
                ) { try await device.device(store: auth0.store.open()) }
                try await protection.apply(to: user)
                return WebLoginOutcome(
                    result, signUp: signUp, browser: webLogin.browser(connection: auth0.connection),
                    connection: auth0.connection, showTokens: showTokens)
            }
            return
        }
        try await runningFlow(step, auth0, dpop: tokens.dpop) { user in
            let outcome = try await native(user, try await device.device(store: auth0.store.open()), showTokens)
            try await protection.apply(to: user)
            return outcome
        }
    }
}

extension SessionFlowOptions {
    /// Runs a password flow (`--password-stdin`): `body` with the user and whether to print the
    /// tokens, no device involved; the new session is then protected as asked, as a passkey
    /// flow's is, so `enroll` and the other session commands use it.
    func runWithPassword(
        _ step: String, tokens: TokenOptions,
        _ body: @escaping (VirtualUser, _ showTokens: Bool) async throws -> PasswordOutcome
    ) async throws {
        let showTokens = tokens.showTokens || auth0.format.json
        try await runningFlow(step, auth0, dpop: tokens.dpop) { user in
            let outcome = try await body(user, showTokens)
            try await protection.apply(to: user)
            return outcome
        }
    }
}

/// `--show-tokens` and `--dpop`, which `signup` and `login` take after their own options.
struct TokenOptions: ParsableArguments {
    @Flag(name: .customLong("show-tokens"), help: "Print the tokens.")
    var showTokens = false

    @Flag(
        help: "Ask for DPoP-bound tokens (RFC 9449): the session keeps a P-256 key, and later commands sign with it.")
    var dpop = false
}
