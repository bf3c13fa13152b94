import PasskeyAuthenticator

extension CTAPDevice {
    /// The control byte (P1) of U2F_AUTHENTICATE (FIDO U2F Raw Message Formats v1.2 §5.1; CTAP
    /// 2.1 §11.2.9.1.1 adds "don't enforce").
    enum U2FAuthenticateControl: UInt8 {
        /// `check-only`: whether the key handle is this authenticator's for the application; never
        /// signs.
        case checkOnly = 0x07
        /// `enforce-user-presence-and-sign`.
        case enforceUserPresence = 0x03
        /// `dont-enforce-user-presence-and-sign`: signs with the presence bit clear.
        case dontEnforceUserPresence = 0x08
    }

    /// U2F_AUTHENTICATE (FIDO U2F Raw Message Formats v1.2 §5): signs with a credential made
    /// through U2F_REGISTER (`Authenticator.authenticateU2F`).
    ///
    /// A key handle that is not this authenticator's for the application parameter is
    /// `SW_WRONG_DATA`, before any test of presence. Check-only answers
    /// `SW_CONDITIONS_NOT_SATISFIED` for one that is (§5.1: "this is not an error"), and signs
    /// nothing; an unknown P1 is `SW_WRONG_DATA`.
    ///
    /// ```
    /// request  = challenge (32) ‖ application (32) ‖ keyHandleLength (1) ‖ keyHandle
    /// response = userPresence (1) ‖ counter (4, big-endian) ‖ signature
    /// ```
    func u2fAuthenticate(_ command: U2FCommandAPDU, _ transaction: CTAPTransaction) async throws(U2FStatusWord)
        -> [UInt8]
    {
        let (challenge, application, keyHandle) = try Self.u2fParameters(command.data, readingKeyHandle: true)
        guard let control = U2FAuthenticateControl(rawValue: command.p1) else { throw .wrongData }
        let known = try await u2fAuthenticating { () async throws(AuthenticatorError) in
            try await authenticator.hasU2FCredential(keyHandle: keyHandle, application: application)
        }
        guard known else { throw .wrongData }
        if control == .checkOnly {
            throw .conditionsNotSatisfied
        }
        if control == .enforceUserPresence {
            try await requireU2FPresence(
                UserPresenceRequest(
                    command: .getAssertion, rpID: StoredCredential.u2fRPID(application: application)),
                transaction)
        }
        let authentication = try await u2fAuthenticating { () async throws(AuthenticatorError) in
            try await authenticator.authenticateU2F(
                application: application, challenge: challenge, keyHandle: keyHandle,
                userPresent: control == .enforceUserPresence)
        }
        var response: [UInt8] = [authentication.userPresence]
        response += withUnsafeBytes(of: authentication.counter.bigEndian, Array.init)
        response += authentication.signature
        return response
    }
}
