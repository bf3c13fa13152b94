import ArgumentParser
import Auth0Passkeys
import Foundation
import Logging
import PasskeyAuthenticator
import PasskeyBrowser
import PasskeyKit
import PasskeyTenant
import WebAuthn

/// The steps of `passkey demo`, each a call of the same virtual-user flows the CLI commands run
/// (PasskeyKit), against a served tenant, with two devices (authenticator stores) and one session.
final class DemoScript {
    /// The number of the step under way, and the titles of the steps begun.
    final class Steps {
        var current = 0
        var titles: [String] = []
    }

    let served: ServedTenant
    let directory: String
    let user: VirtualUser
    let steps = Steps()
    /// Whether each step is told on standard output as it runs (not with `--json`).
    let narrating: Bool

    init(served: ServedTenant, directory: String, verbose: Bool, narrating: Bool = true) throws {
        self.served = served
        self.directory = directory
        self.narrating = narrating
        let settings = try TenantSettings(
            [.clientID: served.tenant.clientID, .baseURL: served.endpoint.baseURL],
            sessionsDirectory: directory + "/sessions", sealing: .keyFile(directory + "/session.key"))
        user = try settings.user(logger: .httpTrace(verbose))
    }

    var phone: String { directory + "/phone" }
    var laptop: String { directory + "/laptop" }

    func run() async throws {
        let configuration = served.tenant.configuration
        narrate(
            """
            A local Auth0-compatible tenant listens on \(served.endpoint.baseURL)
              client ID \(served.tenant.clientID), RP ID \(configuration.relyingPartyID), issuer \(configuration.issuer)
            Two devices: a phone (authenticator store \(phone)) and a laptop (\(laptop)).
            """)
        let phoneDevice = VirtualDevice(store: try await FileCredentialStore(directory: phone))
        let laptopDevice = VirtualDevice(store: try await FileCredentialStore(directory: laptop))

        let signup = try await step(
            "Sign up ada@example.com with a new passkey",
            "The app asks POST /passkey/register for a challenge; the phone's platform authenticator creates a "
                + "passkey with the origin https://\(configuration.relyingPartyID), as an iPhone app's would; the "
                + "webauthn grant at POST /oauth/token verifies the attestation, creates the user and returns tokens."
        ) {
            SignupOutcome(
                try await user.signUp(email: "ada@example.com", name: "Ada Lovelace", on: phoneDevice),
                showTokens: false)
        }
        try await step(
            "Decode the attestation the tenant verified",
            "The registration response (passkey inspect): client data, then the attestation object with the "
                + "authenticator data, its flags and the credential's COSE public key."
        ) { try InspectedInput(WebAuthnJSON.encode(signup.response)).report() }
        try await step(
            "Log in with the passkey",
            "POST /passkey/challenge gives a challenge with no allow list; the phone signs it with the discoverable "
                + "passkey, and the webauthn grant checks the signature, the origin and the user handle."
        ) { LoginOutcome(try await user.logIn(on: phoneDevice), choice: .mostRecent, showTokens: false) }
        try await step(
            "Decode the ID token",
            "An RS256 JWT signed with the key at /.well-known/jwks.json; the claims name the user."
        ) { try Self.decodedJWT(try await user.credentials().idToken) }
        try await step(
            "Enroll a second passkey from the laptop through My Account",
            "The refresh token is exchanged for a My Account token (audience https://\(configuration.domain)/me/, "
                + "scope create:me:authentication_methods); a new passkey of the same account would replace "
                + "the phone's (CTAP 2.1 §6.1.2), so the laptop makes it; the tenant verifies it. Then the laptop logs in with it."
        ) {
            let enrolled = EnrollOutcome(try await user.enroll(from: laptopDevice), user: try await user.storedUser())
            let login = LoginOutcome(try await user.logIn(on: laptopDevice), choice: .mostRecent, showTokens: false)
            return enrolled.text + "\n" + login.text
        }
        try await step(
            "List the user's passkeys",
            "GET /me/v1/authentication-methods?type=passkey with a token of scope read:me:authentication_methods."
        ) {
            MethodsOutcome(
                methods: try await user.authenticationMethods(type: "passkey").map(MethodsOutcome.Method.init))
        }
        try await step(
            "Renew the tokens",
            "The refresh token is spent at POST /oauth/token (grant refresh_token) and rotated; the session keeps "
                + "the new tokens."
        ) {
            let before = try await user.credentials()
            let after = try await user.credentialsManager.renew()
            guard after.accessToken != before.accessToken, after.refreshToken != before.refreshToken else {
                throw FlowFailure(
                    step: "renew", code: "not_renewed", description: "the tenant returned the same tokens",
                    hint: "the tenant should rotate the refresh token")
            }
            return
                "New access token valid until \(SessionReport.timestamp(after.expiresAt)); the refresh token rotated."
        }
        try await step(
            "Call the sample protected API",
            "GET /api/events with a token for \(configuration.apiAudience) and scope read:events, exchanged from the "
                + "refresh token."
        ) {
            try APIOutcome(
                checking: try await user.callAPI(
                    .get, served.endpoint.baseURL + "/api/events", audience: configuration.apiAudience,
                    scope: "read:events"))
        }
        try await step(
            "Log out and revoke the refresh token",
            "POST /oauth/revoke, then the session is forgotten; the revoked refresh token no longer renews."
        ) {
            guard let refreshToken = try await user.credentials().refreshToken else {
                throw CredentialsManagerError(.noRefreshToken, "The session has no refresh token.")
            }
            let logout = LogoutOutcome(try await user.logOut(revoke: true))
            do {
                _ = try await user.tenant.authentication.renew(withRefreshToken: refreshToken).start()
            } catch let error as AuthenticationError where error.code == .invalidGrant {
                return logout.text + "\nThe revoked refresh token is refused: \(error.code): \(error.reason)"
            }
            throw FlowFailure(
                step: "logout", code: "not_revoked", description: "the revoked refresh token still renews",
                hint: "the tenant should refuse it")
        }
        try await step(
            "Log in again on the tenant's login page (Web Auth)",
            "GET /authorize with a PKCE challenge, state and nonce opens the tenant's passkey login page in a headless "
                + "Chromium; the phone's passkey answers the page's autofill request through the page bridge; the "
                + "tenant redirects to a listener on 127.0.0.1 with a code, exchanged with the PKCE verifier; the ID "
                + "token's signature, issuer, audience and nonce are checked before the session keeps it."
        ) { try await self.webLogin() }
    }

    /// The Web Auth step: `passkey login --web --browser chromium --headless` over the phone.
    private func webLogin() async throws -> String {
        guard (try? BrowserEngine.chromium.locate(environment: ProcessInfo.processInfo.environment)) != nil else {
            return "Skipped: Chromium is not installed (apt-get install chromium)."
        }
        let options = try WebLoginOptions.parse(["--web", "--browser", "chromium", "--headless"])
        let store = try StoreOptions.parse(["--store", phone])
        let result = try await options.logIn(
            user, connection: nil, signUp: false, loginHint: nil, choosing: .mostRecent, store: store,
            profile: .platform
        ) { VirtualDevice(store: try await store.open()) }
        return WebLoginOutcome(result, signUp: false, browser: .chromium, connection: nil, showTokens: false).text
    }

    /// The environment that points the CLI at the kept tenant, the phone and the session.
    var environment: KeyValuePairs<String, String> {
        [
            "AUTH0_BASE_URL": served.endpoint.baseURL, "AUTH0_CLIENT_ID": served.tenant.clientID,
            "PASSKEY_STORE": phone, "PASSKEY_SESSIONS": directory + "/sessions",
            "PASSKEY_SESSION_KEY_FILE": directory + "/session.key",
        ]
    }

    /// What `--keep` prints: how to go on by hand.
    var continuation: String {
        let configuration = served.tenant.configuration
        return """

            The tenant keeps running at \(served.endpoint.baseURL) until Ctrl-C (then its files are removed).
            Go on by hand in another terminal:
              export \(environment.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
              passkey login
              passkey whoami --refresh
              passkey methods
              passkey api --audience \(configuration.apiAudience) --scope read:events GET \(served.endpoint.baseURL)/api/events
              passkey signup --email grace@example.com
              passkey logout --revoke
            """
    }

    /// Runs one step: prints its number, title and explanation, then what `body` returns.
    @discardableResult
    private func step<Value>(_ title: String, _ explanation: String, _ body: () async throws -> Value)
        async throws -> Value
    {
        steps.current += 1
        steps.titles.append(title)
        narrate("\n[\(steps.current)] \(title)\n" + Self.wrapped(explanation, indent: "    ") + "\n")
        let value = try await body()
        let text: String =
            switch value {
            case let output as any CommandOutput: output.text
            case let report as Report: report.text
            default: "\(value)"
            }
        narrate(
            text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n"))
        return value
    }

    /// Prints `text` on standard output at once when narrating.
    private func narrate(_ text: String) {
        guard narrating else { return }
        print(text)
        fflush(nil)  // all streams: the steps show as they happen, even through a pipe
    }

    /// The header and claims of a JWT, pretty-printed (RFC 7519 §7.2: decoded, not verified).
    static func decodedJWT(_ token: String) throws -> String {
        guard let jwt = UnverifiedJWT(token) else { throw CLIError.unrecognized("the ID token is not a JWT") }
        return try [jwt.header, jwt.payload].map { part in
            let object = try JSONSerialization.jsonObject(with: Data(part))
            let pretty = try JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            return String(decoding: pretty, as: UTF8.self)
        }.joined(separator: "\n")
    }

    /// `text` broken into lines of at most 100 characters, each after `indent`.
    static func wrapped(_ text: String, indent: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + word.count + 1 > 100 - indent.count {
                lines.append(indent + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(indent + line) }
        return lines.joined(separator: "\n")
    }
}
