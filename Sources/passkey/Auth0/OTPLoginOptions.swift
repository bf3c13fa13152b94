import ArgumentParser
import Foundation
import PasskeyKit

/// `passkey login --otp (--email E | --phone P) [--code-from-outbox]`: a passwordless
/// login with a one-time code, by email or SMS, kept as the session as every login is. `--email` is
/// `login`'s own (it names a password user too), passed to ``run(_:email:tokens:)``.
struct OTPLoginOptions: ParsableArguments {
    @Flag(
        name: .customLong("otp"),
        help: """
            Log in with a one-time code instead of a passkey: the tenant sends it (POST /passwordless/start) to \
            --email or --phone, and the code read from standard input (or the local tenant's outbox, with \
            --code-from-outbox) is exchanged for tokens (the passwordless OTP grant).
            """)
    var otp = false

    @Option(help: "With --otp: the phone number, E.164, the code goes to by SMS (connection sms).")
    var phone: String?

    @Flag(
        name: .customLong("code-from-outbox"),
        help:
            "With --otp: read the code from the local tenant's outbox (tenant serve --test-outbox), not from standard input."
    )
    var codeFromOutbox = false

    /// Refuses what only `--otp` takes without it, and `--otp` without exactly one address.
    ///
    /// - Parameter email: `login`'s `--email`.
    func validate(email: String?) throws {
        guard otp else {
            if phone != nil || codeFromOutbox {
                throw ValidationError("--phone and --code-from-outbox go with --otp")
            }
            return
        }
        guard (email == nil) != (phone == nil) else {
            throw ValidationError("--otp sends the code to one address: give --email or --phone")
        }
    }

    /// Starts the passwordless login, reads the code, logs in and keeps the session.
    ///
    /// - Parameters:
    ///   - session: the tenant, store and session options of `login`.
    ///   - email: `login`'s `--email`, when the code goes by email.
    ///   - tokens: `--show-tokens` and `--dpop`.
    func run(_ session: SessionFlowOptions, email: String?, tokens: TokenOptions) async throws {
        let showTokens = tokens.showTokens || session.auth0.format.json
        try await runningFlow("login", session.auth0, dpop: tokens.dpop) { user in
            let address = email ?? phone ?? ""
            if let email {
                try await user.startPasswordless(email: email)
            } else {
                try await user.startPasswordless(phoneNumber: address)
            }
            let code = try await codeFromOutbox ? user.tenant.latestCode(sentTo: address) : Self.readCode(for: address)
            let result =
                if let email {
                    try await user.logIn(email: email, code: code)
                } else {
                    try await user.logIn(phoneNumber: address, code: code)
                }
            try await session.protection.apply(to: user)
            return OTPLoginOutcome(
                session: SessionReport(user: result.user, credentials: result.credentials, showTokens: showTokens),
                connection: email == nil ? "sms" : "email")
        }
    }

    /// The code, the first line of standard input; a prompt on standard error when it is a terminal.
    static func readCode(for address: String) throws -> String {
        if isatty(STDIN_FILENO) == 1 {
            FileHandle.standardError.write(Data("Enter the code sent to \(address): ".utf8))
        }
        guard let line = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
            throw ValidationError("no code on standard input")
        }
        return line
    }
}
