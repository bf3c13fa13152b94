import PasskeyAuthenticator

/// The instructions of U2F (FIDO U2F Raw Message Formats v1.2 §4–§6).
enum U2FInstruction: UInt8 {
    /// U2F_REGISTER (§4).
    case register = 0x01
    /// U2F_AUTHENTICATE (§5).
    case authenticate = 0x02
    /// U2F_VERSION (§6).
    case version = 0x03
}

extension CTAPDevice {
    /// Whether this device speaks U2F: its authenticator does (`AuthenticatorInfo.supportsU2F`).
    public nonisolated var speaksU2F: Bool { authenticator.info.supportsU2F }

    /// Answers one U2F request message, as `CTAPHID_MSG` carries it (CTAP 2.1 §11.2.9.1.1, FIDO
    /// U2F Raw Message Formats v1.2 §3).
    ///
    /// | INS | command | answers |
    /// |---|---|---|
    /// | 0x01 | U2F_REGISTER (§4) | `0x05`, public key, key handle, certificate, signature |
    /// | 0x02 | U2F_AUTHENTICATE (§5), P1 0x07, 0x03 or 0x08 | presence byte, counter, signature |
    /// | 0x03 | U2F_VERSION (§6) | `U2F_V2` |
    ///
    /// Every response ends in a status word: `SW_NO_ERROR` after the data, or alone
    /// `SW_CLA_NOT_SUPPORTED` (CLA not 0), `SW_INS_NOT_SUPPORTED`, `SW_WRONG_LENGTH` (a malformed
    /// APDU or request data), `SW_WRONG_DATA` (a key handle not this authenticator's for the
    /// application, an unknown P1), `SW_CONDITIONS_NOT_SATISFIED` (no user presence yet; see
    /// `U2FPresence`). Like any other command, it ends a pending getNextAssertion or credential
    /// enumeration (CTAP 2.1 §6.3, §6.8).
    ///
    /// - Parameters:
    ///   - apdu: the command APDU.
    ///   - context: the transaction, whose cancel ends a wait for presence.
    /// - Returns: the response data and the status word.
    public func handleU2F(_ apdu: [UInt8], context: CTAPTransaction) async -> [UInt8] {
        credentialEnumeration = nil
        pendingAssertions = nil
        do {
            return try await answerU2F(apdu, context) + U2FStatusWord.noError.bytes
        } catch {
            return error.bytes
        }
    }

    private func answerU2F(_ apdu: [UInt8], _ transaction: CTAPTransaction) async throws(U2FStatusWord) -> [UInt8] {
        let command = try U2FCommandAPDU(bytes: apdu)
        guard command.cla == 0 else { throw .claNotSupported }
        guard speaksU2F, let instruction = U2FInstruction(rawValue: command.ins) else {
            throw .insNotSupported
        }
        switch instruction {
        case .register:
            return try await u2fRegister(command, transaction)
        case .authenticate:
            return try await u2fAuthenticate(command, transaction)
        case .version:
            // §6: no request data; the version string, without a terminating zero.
            guard command.data.isEmpty else { throw .wrongLength }
            return Array("U2F_V2".utf8)
        }
    }

    /// Waits briefly for the user, as U2F does (`U2FPresence`).
    ///
    /// - Throws: ``U2FStatusWord/conditionsNotSatisfied`` when the user is not present (yet).
    func requireU2FPresence(_ request: UserPresenceRequest, _ transaction: CTAPTransaction)
        async throws(U2FStatusWord)
    {
        guard await u2fPresence.test(presence, request, in: transaction) else {
            throw .conditionsNotSatisfied
        }
    }

    /// Runs an authenticator call, turning its `AuthenticatorError` into a status word: no such
    /// credential is `SW_WRONG_DATA`, a bad length `SW_WRONG_LENGTH`, a user who did not act
    /// `SW_CONDITIONS_NOT_SATISFIED`, anything else (a store failure) "no precise diagnosis".
    func u2fAuthenticating<T>(_ body: () async throws(AuthenticatorError) -> T) async throws(U2FStatusWord) -> T {
        do {
            return try await body()
        } catch {
            switch error.code {
            case .noCredentials: throw .wrongData
            case .invalidLength: throw .wrongLength
            case .operationDenied, .keepaliveCancel, .userActionTimeout: throw .conditionsNotSatisfied
            default: throw .noPreciseDiagnosis
            }
        }
    }
}
