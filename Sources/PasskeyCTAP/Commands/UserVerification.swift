/// How ``CTAPDevice`` verifies the user itself: its built-in user verification method (CTAP 2.1
/// §6.5.2, `performBuiltInUv`), as a fingerprint reader or a phone's screen lock is, beside or
/// instead of a PIN the client collects.
///
/// With one, getInfo reports `uv` true (§6.4), `getPinUvAuthTokenUsingUvWithPermissions` gives
/// a pinUvAuthToken after ``check`` says yes (§6.5.5.7.3), and a makeCredential or getAssertion
/// with the `uv` option and no pinUvAuthParam (how CTAP 2.0 clients ask) verifies the user the
/// same way (§6.1.2 step 11, §6.2.2 step 6). While it waits, the device keeps the transaction
/// alive and honours the client's cancel as ``UserPresence`` does. Each no spends one of the
/// device's UV retries, kept with its state: with none left built-in UV is blocked
/// (`CTAP2_ERR_UV_BLOCKED`) until the PIN is entered correctly or the device is reset. A yes is
/// not a touch: user presence is still asked of ``UserPresence``.
///
/// ```swift
/// let device = CTAPDevice(authenticator: authenticator, userVerification: .ask { request in
///     await unlockPrompt("Verify it is you for \(request.rpID ?? "this device")")
/// })
/// ```
public struct UserVerification: Sendable {
    /// Answers whether the user is who the device belongs to, for one request; it should return
    /// soon after its task is cancelled, but the device does not wait for it once the client
    /// cancels.
    public let check: @Sendable (UserPresenceRequest) async -> Bool
    /// How long the device waits for ``check``.
    public var timeout: Duration
    /// What kind of verification ``check`` is, as getInfo reports it (§6.4 `uvModality`): a
    /// `USER_VERIFY_*` flag of the FIDO Registry of Predefined Values (§3.1), such as 0x2 for a
    /// fingerprint.
    public var modality: UInt32

    /// The user answers the authenticator itself (`USER_VERIFY_PASSCODE_INTERNAL`): a question on
    /// its own screen or terminal, not a PIN the client collects.
    public static let passcodeInternal: UInt32 = 0x4
    /// The answer of a policy that asks no one (``automatic``, ``deny``): given at once.
    private let fixedAnswer: Bool?

    /// A policy that asks `check`.
    ///
    /// - Parameters:
    ///   - timeout: how long to wait for an answer; 30 seconds, as security keys do.
    ///   - modality: the `uvModality` getInfo reports; ``passcodeInternal`` by default.
    ///   - check: answers whether the user is verified.
    public init(
        timeout: Duration = .seconds(30), modality: UInt32 = Self.passcodeInternal,
        check: @escaping @Sendable (UserPresenceRequest) async -> Bool
    ) {
        self.timeout = timeout
        self.modality = modality
        self.check = check
        fixedAnswer = nil
    }

    private init(always answer: Bool) {
        timeout = .seconds(30)
        modality = Self.passcodeInternal
        check = { _ in answer }
        fixedAnswer = answer
    }

    /// Every verification succeeds: for tests, and for a device the caller already guards (as
    /// Chromium's virtual authenticator with `isUserVerified`).
    public static let automatic = UserVerification(always: true)

    /// Every verification fails: each request spends a UV retry until built-in UV is blocked.
    public static let deny = UserVerification(always: false)

    /// Asks a closure (a prompt, a biometric API) each time.
    ///
    /// - Parameters:
    ///   - timeout: how long to wait for an answer.
    ///   - check: answers whether the user is verified.
    /// - Returns: the policy.
    public static func ask(
        timeout: Duration = .seconds(30), _ check: @escaping @Sendable (UserPresenceRequest) async -> Bool
    ) -> UserVerification {
        UserVerification(timeout: timeout, check: check)
    }

    /// One verification, as `performBuiltInUv` (§6.5.2): the answer, or the client's cancel or
    /// the timeout.
    func verify(_ request: UserPresenceRequest, in transaction: CTAPTransaction) async -> UserAnswer {
        await UserAnswer.wait(for: request, asking: check, fixed: fixedAnswer, timeout: timeout, in: transaction)
    }
}
