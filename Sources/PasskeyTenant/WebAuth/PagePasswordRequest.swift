public import WebAuthn

/// `POST /u/passkey/password`'s body: the login page's password login or signup.
/// **[local]**
///
/// ```
/// { "transaction": string, "mode": "login" | "signup", "identifier": string, "password": string,
///   "captcha"?: string }
/// ```
///
/// The answer is ``PageVerifyResponse``'s, as a passkey ceremony's.
public struct PagePasswordRequest: Sendable, Hashable, Codable {
    /// The transaction ID of the page.
    public var transaction: String
    /// `login` or `signup`.
    public var mode: String
    /// The email (or, at login, the username) typed.
    public var identifier: String?
    /// The password typed; never printed.
    public var password: Secret?
    /// Bot detection's CAPTCHA answer, when the page shows the field.
    public var captcha: Secret?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - transaction: the page's transaction ID.
    ///   - mode: `login` or `signup`.
    ///   - identifier: the email or username.
    ///   - password: the password.
    ///   - captcha: the CAPTCHA answer.
    public init(
        transaction: String, mode: String, identifier: String?, password: Secret?, captcha: Secret? = nil
    ) {
        self.transaction = transaction
        self.mode = mode
        self.identifier = identifier
        self.password = password
        self.captcha = captcha
    }
}
