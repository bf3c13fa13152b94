import PasskeyAuthenticator
import WebAuthn

/// The clientPIN state a device holds while powered (CTAP 2.1 §6.5.2): the persistent state as
/// read from its store, the mismatches since power-up, and the one pinUvAuthToken.
struct PINSession: Sendable {
    /// What the store keeps; `nil` until first read.
    var state: CTAPDeviceState?
    /// Wrong PINs in a row since power-up; three block PIN entry until a power cycle (§6.5.5.7.2).
    var consecutiveMismatches = 0
    /// The current token, if one was issued and not reset since.
    var token: PinUvAuthToken?

    /// Wrong PINs in a row that block PIN entry until the device is powered again.
    static let mismatchesBeforePowerCycle = 3
}

/// A pinUvAuthToken and its state (CTAP 2.1 §6.5.2.1): random bytes the platform receives
/// encrypted and then authenticates commands with, the permissions and RP ID it was given,
/// whether it still vouches for a verified user, and when it was issued.
struct PinUvAuthToken: Sendable {
    /// The token, 32 random bytes.
    let key: SecretKey
    /// What it may still be used for.
    var permissions: CTAPPermissions
    /// The RP ID it is bound to, if any (given, or bound by its first use).
    var rpID: String?
    /// Whether it still vouches for a verified user; cleared by the makeCredential or
    /// getAssertion that uses it.
    var userVerified = true
    /// When it was issued.
    let issued: ContinuousClock.Instant
    /// Whether it has been used since.
    var used = false

    /// How soon after being issued a token must first be used (§6.5.2.1 "initial usage time
    /// limit", 30 seconds by default).
    static let initialUsageTimeLimit = Duration.seconds(30)
    /// How long after being issued a used token stays in use (§6.5.2.1 "max usage time period",
    /// at most 10 minutes).
    static let maxUsageTimePeriod = Duration.seconds(600)

    /// Whether the token is still in use at `now` (§6.5.2.1 `pinUvAuthTokenUsageTimerObserver`).
    func isInUse(at now: ContinuousClock.Instant) -> Bool {
        now < issued.advanced(by: used ? Self.maxUsageTimePeriod : Self.initialUsageTimeLimit)
    }

    /// The code `authenticate(pinUvAuthToken, message)` of the protocol (§6.5.6, §6.5.7):
    /// HMAC-SHA-256 keyed with the token, its first 16 bytes for protocol one.
    func authenticate(_ message: [UInt8], _ pinUVAuthProtocol: PINUVAuthProtocol) -> [UInt8] {
        let code = key.withUnsafeBytes { HMACSHA256.authenticationCode(for: message, key: $0) }
        return pinUVAuthProtocol == .one ? Array(code.prefix(16)) : code
    }
}

extension CTAPDevice {
    /// Checks a command's pinUvAuthParam against the current pinUvAuthToken (CTAP 2.1 §6.5.5.7,
    /// as §6.1.2 step 11, §6.8, §6.10.2 and §6.11 each apply it) and binds the token to `rpID`
    /// when it has no RP ID yet.
    ///
    /// - Parameters:
    ///   - permission: what the command needs the token to allow.
    ///   - rpID: the RP ID the command acts for; `nil` when it acts for none or every one.
    ///   - message: the bytes the platform authenticated (the command defines them).
    ///   - parameters: the command's parameters.
    ///   - paramKey: the key of `pinUvAuthParam` among them.
    ///   - protocolKey: the key of `pinUvAuthProtocol` among them.
    /// - Throws: `CTAP2_ERR_PUAT_REQUIRED` without a pinUvAuthParam,
    ///   `CTAP2_ERR_MISSING_PARAMETER` without a protocol, `CTAP1_ERR_INVALID_PARAMETER` for one
    ///   this device lacks, `CTAP2_ERR_PIN_AUTH_INVALID` for a param that does not verify, a token
    ///   no longer in use, lacking `permission`, bound to another RP ID or (for makeCredential and
    ///   getAssertion) no longer vouching for a verified user.
    func authorize(
        _ permission: CTAPPermissions, rpID: String?, message: [UInt8], parameters: CTAPParameters, paramKey: Int,
        protocolKey: Int
    ) throws(CTAPError) {
        guard let item = parameters[UInt64(paramKey)] else {
            throw CTAPError(.pinUVAuthTokenRequired, "the command needs a pinUvAuthParam")
        }
        let param = try item.ctapBytes("pinUvAuthParam")
        let pinUVAuthProtocol = try Self.pinUVAuthProtocol(
            parameters.required(UInt64(protocolKey), "pinUvAuthProtocol"))
        let now = clock.now()
        guard var token = pin.token, token.isInUse(at: now) else {
            pin.token = nil
            throw CTAPError(.pinAuthInvalid, "no pinUvAuthToken is in use")
        }
        guard constantTimeEquals(token.authenticate(message, pinUVAuthProtocol), param) else {
            throw CTAPError(.pinAuthInvalid, "the pinUvAuthParam does not verify")
        }
        guard token.permissions.contains(permission) else {
            throw CTAPError(.pinAuthInvalid, "the pinUvAuthToken lacks the permission the command needs")
        }
        if !permission.isDisjoint(with: [.makeCredential, .getAssertion]), !token.userVerified {
            throw CTAPError(.pinAuthInvalid, "the pinUvAuthToken was used already")
        }
        if let rpID {
            if let bound = token.rpID, bound != rpID {
                throw CTAPError(.pinAuthInvalid, "the pinUvAuthToken is bound to another RP ID")
            }
            token.rpID = rpID
        }
        token.used = true
        pin.token = token
    }

    /// After a makeCredential or getAssertion the token authorized (§6.1.2 step 17, §6.2.2 step
    /// 12): it no longer vouches for a verified user and keeps only `lbw`.
    func spendPinUvAuthToken() {
        pin.token?.userVerified = false
        pin.token?.permissions.formIntersection(.largeBlobWrite)
    }

    /// Issues a new pinUvAuthToken (§6.5.5.7 `resetPinUvAuthToken` then
    /// `beginUsingPinUvAuthToken`): every earlier token stops working.
    func issuePinUvAuthToken(_ permissions: CTAPPermissions, rpID: String?) -> SecretKey {
        let key = SecretKey.random()
        pin.token = PinUvAuthToken(key: key, permissions: permissions, rpID: rpID, issued: clock.now())
        return key
    }

    /// The persistent state, read from the store on first use.
    ///
    /// - Throws: `CTAP1_ERR_OTHER` when the store cannot be read.
    func deviceState() async throws(CTAPError) -> CTAPDeviceState {
        if let state = pin.state {
            return state
        }
        var state = CTAPDeviceState()
        if let stateStore {
            do {
                state = try await stateStore.ctapState()
            } catch {
                throw CTAPError(.other, "the device state cannot be read: \(error)")
            }
        }
        if let read = pin.state {
            return read  // another command read it while this one waited
        }
        pin.state = state
        return state
    }

    /// Changes the persistent state, in memory at once and then in the store, before the
    /// command answers (so a wrong PIN counts even if the answer is lost).
    ///
    /// - Throws: `CTAP1_ERR_OTHER` when the store cannot keep it.
    func updateDeviceState(_ change: (inout CTAPDeviceState) -> Void) async throws(CTAPError) {
        var state = try await deviceState()
        change(&state)
        pin.state = state
        guard let stateStore else { return }
        do {
            try await stateStore.setCTAPState(state)
        } catch {
            throw CTAPError(.other, "the device state cannot be written: \(error)")
        }
    }

    /// The PIN/UV auth protocol a `pinUvAuthProtocol` parameter names.
    ///
    /// - Throws: `CTAP2_ERR_CBOR_UNEXPECTED_TYPE` for a non-integer, `CTAP1_ERR_INVALID_PARAMETER`
    ///   for a protocol other than 1 or 2.
    static func pinUVAuthProtocol(_ item: CBOR) throws(CTAPError) -> PINUVAuthProtocol {
        let version = try item.ctapInt("pinUvAuthProtocol")
        guard let pinUVAuthProtocol = PINUVAuthProtocol(rawValue: version) else {
            throw CTAPError(.invalidParameter, "PIN/UV auth protocol \(version) is not supported")
        }
        return pinUVAuthProtocol
    }
}

extension CTAPDevice {
    /// The first checks of a makeCredential or getAssertion's `pinUvAuthParam` (CTAP 2.1 §6.1.2
    /// steps 1–2, §6.2.2 steps 1–2). A zero-length param is a client asking the user to touch
    /// this device among several: after presence it answers `CTAP2_ERR_PIN_INVALID` when a PIN
    /// is set and `CTAP2_ERR_PIN_NOT_SET` when not.
    ///
    /// - Returns: whether the command carries a pinUvAuthParam, for `verifiedUser` to check.
    /// - Throws: those statuses, `CTAP2_ERR_MISSING_PARAMETER` without a protocol,
    ///   `CTAP1_ERR_INVALID_PARAMETER` for one this device lacks, and presence failures.
    func pinUvAuthPreflight(
        _ parameters: CTAPParameters, paramKey: Int, protocolKey: Int, presence request: UserPresenceRequest,
        _ transaction: CTAPTransaction
    ) async throws(CTAPError) -> Bool {
        guard let item = parameters[UInt64(paramKey)] else { return false }
        if try item.ctapBytes("pinUvAuthParam").isEmpty {
            try await presence.require(request, in: transaction)
            let state = try await deviceState()
            throw state.pinHash == nil || !supportsClientPIN
                ? CTAPError(.pinNotSet, "no PIN is set") : CTAPError(.pinInvalid, "the device was touched")
        }
        _ = try Self.pinUVAuthProtocol(parameters.required(UInt64(protocolKey), "pinUvAuthProtocol"))
        return true
    }

    /// Whether the user is verified for a makeCredential or getAssertion (§6.1.2 steps 6 and 11,
    /// §6.2.2 steps 6 and 11): with a pinUvAuthParam, when it verifies under the token; without
    /// one, not, which a PIN-protected device allows only where `mayGoUnverified` (getAssertion,
    /// or makeCredential of a non-discoverable credential under `makeCredUvNotRqd`), and a device
    /// with `alwaysUv` never. A device with built-in user verification verifies the user itself
    /// instead, when `uvOption` asks it to
    /// (``builtInUserVerified(uvOption:mayGoUnverified:userPresence:_:_:_:)``).
    ///
    /// - Throws: `CTAP2_ERR_PUAT_REQUIRED`, `CTAP2_ERR_PIN_NOT_SET` (alwaysUv without a PIN), or
    ///   what ``authorize(_:rpID:message:parameters:paramKey:protocolKey:)`` throws.
    func verifiedUser(
        _ permission: CTAPPermissions, rpID: String, clientDataHash: [UInt8], parameters: CTAPParameters,
        paramKey: Int, protocolKey: Int, mayGoUnverified: Bool, uvOption: Bool, userPresence: Bool = true,
        _ request: UserPresenceRequest, _ transaction: CTAPTransaction
    ) async throws(CTAPError) -> Bool {
        if parameters[UInt64(paramKey)] != nil {
            try authorize(
                permission, rpID: rpID, message: clientDataHash, parameters: parameters, paramKey: paramKey,
                protocolKey: protocolKey)
            return true
        }
        guard supportsClientPIN else { return false }
        let state = try await deviceState()
        if builtInUserVerification != nil {
            return try await builtInUserVerified(
                uvOption: uvOption, mayGoUnverified: mayGoUnverified, userPresence: userPresence, state, request,
                transaction)
        }
        if state.alwaysUv, state.pinHash == nil {
            throw CTAPError(.pinNotSet, "alwaysUv is on: set a PIN first")
        }
        if state.pinHash != nil, state.alwaysUv || !mayGoUnverified {
            throw CTAPError(.pinUVAuthTokenRequired, "a PIN is set: the command needs a pinUvAuthParam")
        }
        return false
    }
}
