import Auth0Passkeys
import PasskeyAuthenticator
import PasskeyKit
import WebAuthn

/// Why an Auth0 command failed, in the words a terminal user needs: which step, the Auth0 (or
/// WebAuthn, or transport) error code and description, and what to do about it. It prints as one
/// line on standard error, or as `{"error": {…}}` with `--json`, and the command exits 1.
///
/// Built from the library's typed errors; a token never appears in any of them (the libraries'
/// errors carry none).
struct FlowFailure: Error, Encodable, CustomStringConvertible {
    /// The command that failed: `signup`, `login`, `enroll`, ….
    var step: String
    /// Auth0's `error` (`invalid_grant`, …), a WebAuthn error name (`NotAllowedError`, …), a
    /// transport code (`cannot-connect`, …) or this tool's own (`not_logged_in`, …).
    let code: String
    /// What went wrong.
    let description: String
    /// The HTTP status, when a server answered.
    var status: Int?
    /// What to do about it.
    let hint: String

    init(step: String, code: String, description: String, status: Int? = nil, hint: String) {
        self.step = step
        self.code = code
        self.description = description
        self.status = status
        self.hint = hint
    }

    /// `signup failed: invalid_client (HTTP 401): Unknown client. — check --client-id …`
    var line: String {
        let status = status.map { " (HTTP \($0))" } ?? ""
        return "\(step) failed: \(code)\(status): \(description) — \(hint)"
    }

    /// A failure from any error a flow throws: the party that failed as PasskeyKit tells it
    /// (``PasskeyFlowError/init(classifying:)``), with this tool's hint.
    init(step: String, _ error: any Error) {
        if let failure = error as? FlowFailure {
            self = failure
            self.step = step
            return
        }
        switch PasskeyFlowError(classifying: error) {
        case .authentication(let error): self.init(step: step, api: error)
        case .myAccount(let error): self.init(step: step, api: error)
        case .management(let error): self.init(step: step, api: error)
        case .session(let error): self.init(step: step, session: error)
        case .device(let error): self.init(step: step, device: error)
        case .store(let error): self.init(step: step, store: error)
        case .user(let error): self.init(step: step, user: error)
        case .transport(let error):
            self.init(
                step: step, code: error.codeName, description: "no answer: \(error.reason)",
                hint: "is the server running, and the URL right?")
        case .webAuth(let error): self.init(step: step, coded: error)
        case nil:
            if let error = error as? any CodedError {
                self.init(step: step, coded: error)
            } else {
                self.init(step: step, code: "error", description: "\(error)", hint: Self.traceHint)
            }
        }
    }

    /// What to do when nothing more specific is known.
    private static let traceHint = "run again with -v for the HTTP trace"

    /// Any other coded error: its code name and reason.
    private init(step: String, coded error: some CodedError) {
        self.init(step: step, code: error.codeName, description: error.reason, hint: Self.traceHint)
    }

    /// An answer (or no answer) from the Authentication or My Account API (spec §7).
    private init(step: String, api error: any Auth0APIError) {
        if let transport = error.cause as? TransportError {
            self.init(
                step: step, code: transport.code.rawValue,
                description: "no answer from the tenant: \(transport.reason)",
                hint: [.tls, .caBundleUnreadable].contains(transport.code)
                    ? "to trust the tenant's CA, pass --cacert FILE (or set CURL_CA_BUNDLE or SSL_CERT_FILE)"
                    : "is the tenant running, and are --domain / --base-url (AUTH0_DOMAIN, AUTH0_BASE_URL) right?")
            return
        }
        let code = error.code
        let reason = error.reason
        let hint: String
        switch (code.rawValue, error.statusCode) {
        case ("a0.sdk.internal_error.invalid_configuration", _):
            hint = "give --domain, or --base-url https://… (plain http only to a loopback address)"
        case ("invalid_client", _), ("unauthorized_client", _):
            hint = "check --client-id (AUTH0_CLIENT_ID): the tenant does not know this application"
        case ("too_many_attempts", _):
            hint = "the tenant locked further attempts for a while; wait, then try again"
        case _ where (error as? AuthenticationError)?.isInvalidCredentials == true:
            hint = "wrong email, username or password"
        case _ where (error as? AuthenticationError)?.isPasswordNotStrongEnough == true:
            let policy = error.info["policy"]?.stringValue.map { $0.split(separator: "\n").joined(separator: "; ") }
            hint = "the connection's password policy refuses it" + (policy.map { ": \($0)" } ?? "")
        case ("user_exists", _), ("username_exists", _):
            hint = "that identifier is taken: sign up with another one, or run `passkey login`"
        case ("requires_verification", _):
            hint = "the tenant's bot detection wants a CAPTCHA answer"
        case ("invalid_grant", _) where reason.contains("wrong-origin"):
            hint = "the tenant does not accept this origin: drop --origin, or configure the tenant with it"
        case ("invalid_grant", _) where reason.contains("refresh token") || reason.contains("refresh_token"):
            hint = "the session was revoked or has expired: run `passkey login`"
        case ("invalid_grant", _):
            hint = "the tenant refused the passkey; run again with -v for the HTTP trace"
        case ("invalid_request", _) where reason.lowercased().contains("exist"):
            hint = "that identifier is taken: sign up with another one, or run `passkey login`"
        case (_, let status) where error is ManagementAPIError && (status == 401 || status == 403):
            hint =
                "the Management API refused the m2m client's token: check the client's grant and scopes "
                + "(create:users, read:users, create:authentication_methods, read:authentication_methods)"
        case (_, 409) where error is ManagementAPIError:
            hint = "the passkey is attached already: seed from another store (--store DIR)"
        case (_, 401), (_, 403):
            hint = "the token was refused: run `passkey login` again"
        case (_, 500...599):
            hint = "the tenant failed; try again later"
        default:
            hint = Self.traceHint
        }
        self.init(
            step: step, code: code.rawValue, description: reason,
            status: error.statusCode == 0 ? nil : error.statusCode, hint: hint)
    }

    /// The stored session could not give what was asked (spec §9).
    private init(step: String, session error: CredentialsManagerError) {
        if let cause = error.cause, cause is AuthenticationError || cause is MyAccountError {
            self.init(step: step, cause)
            return
        }
        switch error.code {
        case .noCredentials:
            self.init(
                step: step, code: "not_logged_in", description: "there is no session with this tenant",
                hint: "run `passkey login` (or `passkey signup`)")
        case .noRefreshToken:
            self.init(
                step: step, code: "no_refresh_token", description: "the session has no refresh token to renew with",
                hint: "log in again with a scope that includes offline_access")
        case .passphraseRequired, .passphraseFailed:
            self.init(
                step: step, code: error.code.rawValue,
                description: error.cause.map { "\(error.reason) \($0)" } ?? error.reason,
                hint: "the session was made with --require-passphrase: give it on the terminal or in PASSKEY_PASSPHRASE"
            )
        case .readFailed where (error.cause as? CredentialsStorageError)?.code == .wrongKey:
            self.init(
                step: step, code: error.code.rawValue,
                description: "\(error.reason) \(error.cause.map { "\($0)" } ?? "")",
                hint: "sessions are sealed under PASSKEY_PASSPHRASE when it is set, else under the key file "
                    + "PASSKEY_SESSION_KEY_FILE (default ~/.config/auth0-passkeys/storage.key): use the same one")
        default:
            self.init(
                step: step, code: error.code.rawValue,
                description: error.cause.map { "\(error.reason) \($0)" }
                    ?? error.reason, hint: "check the session directory (--sessions, PASSKEY_SESSIONS)")
        }
    }

    /// The authenticator or the WebAuthn client refused (WebAuthn L3 §5.1.3, §5.1.4: the
    /// DOMException names).
    private init(step: String, device error: WebAuthnClientError) {
        if let store = error.authenticatorError?.storeError {
            self.init(step: step, store: store)
            return
        }
        let hint: String
        switch error.name {
        case .invalidState:
            hint = "this store already holds a passkey for the account: use another store (--store DIR)"
        case .security:
            hint = "the origin may not use the tenant's RP ID: drop --origin or fix it"
        case .notSupported:
            hint = "the authenticator supports none of the tenant's algorithms"
        case .syntax:
            hint = "the tenant's options are malformed"
        default:
            hint = "the ceremony did not complete: no passkey response went to the tenant and nothing was stored"
        }
        self.init(step: step, code: error.name.rawValue, description: error.message, hint: hint)
    }

    /// A virtual user's flow stopped on a condition of its own.
    private init(step: String, user error: VirtualUserError) {
        let hint =
            switch error.code {
            case .alreadyEnrolledHere: "enroll from another device: --store DIR of another store"
            case .noDomain: "pass --domain"
            case .refusedURL: "a bearer token goes only over https (or http to a loopback address)"
            default: Self.traceHint
            }
        self.init(step: step, code: error.code.rawValue, description: error.reason, hint: hint)
    }

    /// The authenticator store failed; its files are left as they are.
    private init(step: String, store error: StoreError) {
        let hint: String
        switch error.code {
        case .corrupt:
            hint = "that store file is damaged and was left as it is: restore it, or delete it (`passkey delete ID`)"
        case .diskFull:
            hint = "free some space; every committed passkey is intact"
        case .wrongPassphrase:
            hint = "set PASSKEY_PASSPHRASE to the store's passphrase"
        case .locked:
            hint = "another passkey process holds the store; try again"
        default:
            hint = "check the store directory (--store, PASSKEY_STORE)"
        }
        self.init(step: step, code: "store-\(error.code.rawValue)", description: error.description, hint: hint)
    }
}
