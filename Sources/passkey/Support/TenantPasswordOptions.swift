import ArgumentParser
import PasskeyTenant

/// `passkey tenant serve`'s options of the database connection's passwords: the
/// password policy and bot detection. They override `--config`'s `password_policy`,
/// `bot_detection` and `captcha_answer`.
struct TenantPasswordOptions: ParsableArguments {
    @Option(
        name: .customLong("password-policy"),
        help: "The connection's password strength policy: none, low, fair, good (default) or excellent, Auth0's levels."
    )
    var passwordPolicy: PasswordPolicy?

    @Option(
        name: .customLong("bot-detection"),
        help: "Bot detection: off (default), or always (password logins and signups must answer the CAPTCHA).")
    var botDetection: DatabaseConnectionOptions.BotDetection?

    @Option(
        name: .customLong("captcha-answer"),
        help: "The CAPTCHA's test-mode answer, sent as captcha; without it, bot detection refuses every request.")
    var captchaAnswer: String?

    /// Applies the options to `configuration`, after the configuration file.
    func apply(to configuration: inout TenantConfiguration) {
        if let passwordPolicy { configuration.databaseConnection.passwordPolicy = passwordPolicy }
        if let botDetection { configuration.databaseConnection.botDetection = botDetection }
        if let captchaAnswer { configuration.databaseConnection.captchaAnswer = Secret(captchaAnswer) }
    }
}
