/// How ``CTAPDevice`` learns that the user is present: the test of user presence CTAP 2.1 asks
/// for before it makes a credential, signs an assertion with `up`, resets or is selected
/// (§6.1.2 step 13, §6.2.2 step 9, §6.6, §6.9).
///
/// A real security key waits for a touch; this one asks ``check``. While it waits, the device
/// sends `CTAPHID_KEEPALIVE` with `UPNEEDED` every 100 ms through the transaction, honours
/// `CTAPHID_CANCEL` (`CTAP2_ERR_KEEPALIVE_CANCEL`) and gives up after ``timeout``
/// (`CTAP2_ERR_USER_ACTION_TIMEOUT`). A denial is `CTAP2_ERR_OPERATION_DENIED`.
///
/// ```swift
/// let device = CTAPDevice(authenticator: authenticator, presence: .ask { request in
///     await prompt("Touch to use your passkey for \(request.rpID ?? "this device")")
/// })
/// ```
public struct UserPresence: Sendable {
    /// Answers whether the user is present for one request; it should return soon after its
    /// task is cancelled, but the device does not wait for it once the client cancels.
    public let check: @Sendable (UserPresenceRequest) async -> Bool
    /// How long the device waits for ``check``.
    public var timeout: Duration
    /// The answer of a policy that asks no one (``automatic``, ``deny``): given at once, with no
    /// wait, keep-alive or timer behind it.
    private let fixedAnswer: Bool?

    /// A policy that asks `check`.
    ///
    /// - Parameters:
    ///   - timeout: how long to wait for an answer; 30 seconds, as security keys do.
    ///   - check: answers whether the user is present.
    public init(timeout: Duration = .seconds(30), check: @escaping @Sendable (UserPresenceRequest) async -> Bool) {
        self.timeout = timeout
        self.check = check
        fixedAnswer = nil
    }

    private init(always answer: Bool) {
        timeout = .seconds(30)
        check = { _ in answer }
        fixedAnswer = answer
    }

    /// The user is always present: for tests and for a device the caller already guards.
    public static let automatic = UserPresence(always: true)

    /// The user never is: every command that needs presence answers `CTAP2_ERR_OPERATION_DENIED`.
    public static let deny = UserPresence(always: false)

    /// Asks a closure (a prompt, a notification) each time.
    ///
    /// - Parameters:
    ///   - timeout: how long to wait for an answer.
    ///   - check: answers whether the user is present.
    /// - Returns: the policy.
    public static func ask(
        timeout: Duration = .seconds(30), _ check: @escaping @Sendable (UserPresenceRequest) async -> Bool
    ) -> UserPresence {
        UserPresence(timeout: timeout, check: check)
    }

    /// Waits for ``check`` while keeping the transaction alive, and throws unless the user is
    /// present.
    ///
    /// - Throws: `CTAP2_ERR_OPERATION_DENIED`, `CTAP2_ERR_KEEPALIVE_CANCEL` or
    ///   `CTAP2_ERR_USER_ACTION_TIMEOUT`.
    func require(_ request: UserPresenceRequest, in transaction: CTAPTransaction) async throws(CTAPError) {
        switch await UserAnswer.wait(
            for: request, asking: check, fixed: fixedAnswer, timeout: timeout, in: transaction)
        {
        case .yes: return
        case .no: throw CTAPError(.operationDenied, "the user declined")
        case .cancelled: throw CTAPError(.keepAliveCancel, "the client cancelled")
        case .timedOut: throw CTAPError(.userActionTimeout, "the user did not respond within \(timeout)")
        }
    }
}

/// What the device asks the user about: to be present (``UserPresence``) or to be verified
/// (``UserVerification``).
public struct UserPresenceRequest: Sendable, Hashable {
    /// The command waiting.
    public let command: CTAPCommand
    /// The relying party, for MakeCredential, GetAssertion and a pinUvAuthToken bound to one.
    public let rpID: String?

    /// Describes a request.
    ///
    /// - Parameters:
    ///   - command: the command waiting.
    ///   - rpID: the relying party, if the command has one.
    public init(command: CTAPCommand, rpID: String? = nil) {
        self.command = command
        self.rpID = rpID
    }
}
