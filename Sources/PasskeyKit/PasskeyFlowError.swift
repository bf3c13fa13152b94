public import Auth0Passkeys
public import PasskeyAuthenticator
public import WebAuthn

/// Why a virtual user's flow failed: which party refused, with that party's own typed error.
///
/// Every flow of ``VirtualUser`` (sign up, log in, enroll, the My Account and `/userinfo` calls,
/// an API call) throws this one type, so a caller switches over who failed instead of guessing
/// among the libraries' errors:
///
/// ```swift
/// do {
///     try await user.logIn()
/// } catch .authentication(let refusal) where refusal.isTooManyAttempts {
///     // the tenant locked further attempts for a while
/// } catch .device(let refusal) {
///     print("the authenticator said", refusal.name)  // NotAllowedError, …
/// }
/// ```
///
/// As a `CodedError` it reports the wrapped error's code name and reason, and the wrapped error
/// is its cause.
public enum PasskeyFlowError: CodedError {
    /// Auth0's Authentication API refused, or did not answer (then the cause is the
    /// `TransportError`).
    case authentication(AuthenticationError)
    /// Auth0's My Account API refused, or did not answer.
    case myAccount(MyAccountError)
    /// Auth0's Management API refused, or did not answer (seeding a user, spec §15).
    case management(ManagementAPIError)
    /// The device refused the ceremony: the WebAuthn client's `DOMException` name.
    case device(WebAuthnClientError)
    /// The device's credential store failed.
    case store(StoreError)
    /// The session could not be stored, read or renewed.
    case session(CredentialsManagerError)
    /// A protected API did not answer.
    case transport(TransportError)
    /// The flow stopped on a condition of its own.
    case user(VirtualUserError)
    /// A Web Auth login failed: the browser, the redirect, the code exchange or the ID token.
    case webAuth(WebAuthError)

    /// The error of the party that failed.
    public var underlying: any CodedError {
        switch self {
        case .authentication(let error): error
        case .myAccount(let error): error
        case .management(let error): error
        case .device(let error): error
        case .store(let error): error
        case .session(let error): error
        case .transport(let error): error
        case .user(let error): error
        case .webAuth(let error): error
        }
    }

    /// The underlying error's code name (`invalid_grant`, `NotAllowedError`, `disk-full`, …).
    public var code: String { underlying.codeName }

    /// The underlying error's reason.
    public var reason: String { underlying.reason }

    /// The underlying error.
    public var cause: (any Error)? { underlying }

    /// The underlying error's description.
    public var description: String { underlying.description }

    /// The case for an error any library below threw, or `nil` for one none of the cases names.
    ///
    /// The one place the libraries' concrete error types are told apart: the flows throw the
    /// case directly, and the front ends (the `passkey` CLI's failures, the control server's
    /// answers) start from this, then switch over the cases.
    ///
    /// - Parameter error: what a flow, or a library call, threw.
    public init?(classifying error: any Error) {
        switch error {
        case let error as PasskeyFlowError: self = error
        case let error as AuthenticationError: self = .authentication(error)
        case let error as MyAccountError: self = .myAccount(error)
        case let error as ManagementAPIError: self = .management(error)
        case let error as WebAuthnClientError: self = .device(error)
        case let error as StoreError: self = .store(error)
        case let error as CredentialsManagerError: self = .session(error)
        case let error as TransportError: self = .transport(error)
        case let error as VirtualUserError: self = .user(error)
        case let error as WebAuthError: self = .webAuth(error)
        default: return nil
        }
    }
}
