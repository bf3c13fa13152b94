import PasskeyAuthenticator
import WebAuthn

/// What came of one `performBuiltInUv` (CTAP 2.1 §6.5.2).
enum BuiltInUVOutcome: Sendable {
    /// The user is verified; the UV retries are full again.
    case verified
    /// The user was not; a UV retry was spent and some are left.
    case denied
    /// No UV retry is left: this one was the last, or none was left to try.
    case blocked
    /// No answer within the policy's timeout; no retry spent.
    case timedOut
}

extension CTAPDevice {
    /// How many times a platform should call getPinUvAuthTokenUsingUvWithPermissions before it
    /// gives up or turns to the PIN (§6.4 `preferredPlatformUvAttempts`). Above 1, each call
    /// makes one attempt (§6.5.5.7.3 step 6: `internalRetry` false); the `uv` option of
    /// makeCredential and getAssertion, with `internalRetry` true, also makes one
    /// (`maxUvAttemptsForInternalRetries` 1): a no to a question is an answer, not a bad reading.
    static let preferredPlatformUvAttempts = 3

    /// The device's built-in user verification: ``userVerification``, when the authenticator can
    /// vouch for a verified user (its UV flag); none otherwise, as then no PIN either.
    var builtInUserVerification: UserVerification? { supportsClientPIN ? userVerification : nil }

    /// Whether the device is "protected by some form of user verification" (CTAP 2.1 §6.1.2 step
    /// 6, §6.10.2, §6.11): a PIN is set, or it verifies users itself.
    func isProtected(_ state: CTAPDeviceState) -> Bool {
        state.pinHash != nil || builtInUserVerification != nil
    }

    /// getInfo's members of a device with built-in UV (§6.4): option `uv` true (supported and
    /// configured: the policy always is), `uvAcfg` true (a UV token may carry `acfg`, as it may
    /// `cm` and `lbw` where `credMgmt` and `largeBlobs` are), `preferredPlatformUvAttempts`
    /// (0x11) and `uvModality` (0x12). `pinUvAuthToken` is there already: the device is 2.1.
    func addUserVerificationInfo(to response: inout [CBOR: CBOR]) {
        guard let verification = builtInUserVerification else { return }
        var options = response[4]?.mapValue ?? [:]
        options["uv"] = true
        options["uvAcfg"] = true
        response[4] = .map(options)
        response[0x11] = CBOR(Self.preferredPlatformUvAttempts)
        response[0x12] = CBOR(Int(verification.modality))
    }

    /// getUVRetries (§6.5.5.3): the built-in UV attempts left before it is blocked.
    ///
    /// ```
    /// response = { 0x05 uvRetries: uint }
    /// ```
    func uvRetries() async throws(CTAPError) -> CBOR {
        [5: CBOR(try await deviceState().uvRetries)]
    }

    /// getPinUvAuthTokenUsingUvWithPermissions (§6.5.5.7.3 steps 5–16), once its parameters are
    /// checked (steps 1–4): the user verified by the device itself, a fresh token with
    /// `permissions` (and `rpID`), encrypted with the secret. The secret is agreed before the user
    /// is asked, so a bad key costs no question.
    ///
    /// - Throws: `CTAP2_ERR_UV_BLOCKED` with no UV retry left (before asking, or after the last
    ///   one), `CTAP2_ERR_UV_INVALID` for a failed verification with retries left,
    ///   `CTAP2_ERR_USER_ACTION_TIMEOUT`, `CTAP2_ERR_KEEPALIVE_CANCEL`,
    ///   `CTAP1_ERR_INVALID_PARAMETER` for a key that agrees on no secret.
    func uvToken(
        _ keyAgreement: CBOR, _ pinUVAuthProtocol: PINUVAuthProtocol, _ permissions: CTAPPermissions, rpID: String?,
        _ transaction: CTAPTransaction
    ) async throws(CTAPError) -> CBOR {
        let secret = try await sharedSecret(keyAgreement, pinUVAuthProtocol)
        switch try await performBuiltInUV(UserPresenceRequest(command: .clientPIN, rpID: rpID), transaction) {
        case .verified: break
        case .denied: throw CTAPError(.uvInvalid, "built-in user verification failed")
        case .blocked: throw CTAPError(.uvBlocked, "built-in user verification is blocked: enter the PIN")
        case .timedOut: throw CTAPError(.userActionTimeout, "the user was not verified in time")
        }
        var token = issuePinUvAuthToken(permissions, rpID: rpID).withUnsafeBytes { Array($0) }
        defer { secureZero(&token) }
        return try await authenticating { () throws(AuthenticatorError) in [2: .bytes(try secret.encrypt(token))] }
    }

    /// Whether a makeCredential or getAssertion without a pinUvAuthParam verifies the user on a
    /// device with built-in UV (§6.1.2 steps 6–8 and 11.2, §6.2.2 steps 5 and 6.2): when the
    /// client asks with the `uv` option, or alwaysUv is on and the user is to be present (a
    /// CTAP 2.0 client knows no alwaysUv); a discoverable credential (§6.1.2 steps 7–8) cannot
    /// go without. A failure changes nothing but the UV retries.
    ///
    /// - Throws: `CTAP2_ERR_PUAT_REQUIRED` where a PIN is set (the client can ask for it instead),
    ///   else `CTAP2_ERR_OPERATION_DENIED` for a verification refused or not asked for,
    ///   `CTAP2_ERR_PIN_BLOCKED` once built-in UV is blocked (§6.1.2 step 11.2.3),
    ///   `CTAP2_ERR_USER_ACTION_TIMEOUT`, `CTAP2_ERR_KEEPALIVE_CANCEL`.
    func builtInUserVerified(
        uvOption: Bool, mayGoUnverified: Bool, userPresence: Bool, _ state: CTAPDeviceState,
        _ request: UserPresenceRequest, _ transaction: CTAPTransaction
    ) async throws(CTAPError) -> Bool {
        let pinInstead = CTAPError(.pinUVAuthTokenRequired, "the user is not verified: send a pinUvAuthParam")
        guard uvOption || (state.alwaysUv && userPresence) else {
            if !mayGoUnverified {
                throw state.pinHash != nil
                    ? pinInstead : CTAPError(.operationDenied, "a discoverable credential needs the uv option")
            }
            return false
        }
        let outcome = try await performBuiltInUV(request, transaction)
        switch outcome {
        case .verified: return true
        case .timedOut: throw CTAPError(.userActionTimeout, "the user was not verified in time")
        case .denied, .blocked:
            if state.pinHash != nil { throw pinInstead }
            throw outcome == .blocked
                ? CTAPError(.pinBlocked, "built-in user verification is blocked")
                : CTAPError(.operationDenied, "built-in user verification failed")
        }
    }

    /// `performBuiltInUv` (§6.5.2, §6.5.5.7.3 steps 7–10): one verification by the policy, unless
    /// no UV retry is left. A no spends a retry, written before the command answers; a yes fills
    /// them again; a timeout spends none.
    ///
    /// - Throws: `CTAP2_ERR_KEEPALIVE_CANCEL` when the client cancels, the store's failure.
    func performBuiltInUV(_ request: UserPresenceRequest, _ transaction: CTAPTransaction) async throws(CTAPError)
        -> BuiltInUVOutcome
    {
        guard let verification = builtInUserVerification else { return .blocked }
        guard try await deviceState().uvRetries > 0 else { return .blocked }
        switch await verification.verify(request, in: transaction) {
        case .yes:
            if try await deviceState().uvRetries != CTAPDeviceState.maxUVRetries {
                try await updateDeviceState { $0.uvRetries = CTAPDeviceState.maxUVRetries }
            }
            return .verified
        case .no:
            try await updateDeviceState { $0.uvRetries -= 1 }
            return try await deviceState().uvRetries > 0 ? .denied : .blocked
        case .cancelled:
            throw CTAPError(.keepAliveCancel, "the client cancelled")
        case .timedOut:
            return .timedOut
        }
    }
}
