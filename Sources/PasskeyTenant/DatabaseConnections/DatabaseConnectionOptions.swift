/// How the database connection treats passwords: whether it takes them, their
/// strength policy, the cost of their hash, bot detection, and how long a reset ticket lives.
///
/// `passkey tenant serve` sets these with `--password-policy`, `--bot-detection` and
/// `--captcha-answer`, and `--config` with `password_policy`, `bot_detection`, `captcha_answer`.
public struct DatabaseConnectionOptions: Sendable, Hashable {
    /// Whether the connection takes passwords (Auth0's `authentication_methods.password.enabled`):
    /// `/dbconnections/*`, the password grants and the login page's password form. True by default,
    /// as a new Auth0 database connection has it.
    public var passwordsEnabled: Bool
    /// The password strength policy; `good` by default, Auth0's for new connections.
    public var passwordPolicy: PasswordPolicy
    /// Bot detection: `always` demands ``captchaAnswer`` of every password login and signup.
    public var botDetection: BotDetection
    /// **[local]** The answer to the CAPTCHA when bot detection is on: the test-mode answer a suite
    /// supplies as `captcha`. None by default: every request is then refused while detection is on.
    public var captchaAnswer: Secret?
    /// scrypt's cost as log2 N (r = 8, p = 1): 15 by default (N = 32768, 32 MiB), RFC 7914 §2's
    /// interactive range. Hashes keep their own cost, so changing it affects new passwords only.
    public var passwordHashLogN: Int
    /// **[local]** How long a password-reset ticket lives: 5 days, the default `ttl_sec` of Auth0's
    /// password-change tickets.
    public var resetTicketLifetime: Duration

    /// Creates the options, Auth0's defaults unless given.
    public init(
        passwordsEnabled: Bool = true, passwordPolicy: PasswordPolicy = .good, botDetection: BotDetection = .off,
        captchaAnswer: Secret? = nil, passwordHashLogN: Int = 15, resetTicketLifetime: Duration = .seconds(432_000)
    ) {
        self.passwordsEnabled = passwordsEnabled
        self.passwordPolicy = passwordPolicy
        self.botDetection = botDetection
        self.captchaAnswer = captchaAnswer
        self.passwordHashLogN = passwordHashLogN
        self.resetTicketLifetime = resetTicketLifetime
    }

    /// When bot detection demands a CAPTCHA (Auth0's Attack Protection › Bot Detection ›
    /// "Require a CAPTCHA" for password flows: never, when risky, always).
    public enum BotDetection: String, Sendable, Hashable, Codable, CaseIterable {
        /// Never.
        case off
        /// Always: every password login and signup answers the CAPTCHA.
        case always
    }
}
