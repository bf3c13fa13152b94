import PasskeyAuthenticator

extension CTAPDevice {
    /// `authenticatorReset` (CTAP 2.1 §6.6): within ``resetWindow`` of power-up and after the
    /// user's presence, wipes every credential.
    ///
    /// - Throws: `CTAP2_ERR_NOT_ALLOWED` after the window, `CTAP2_ERR_OPERATION_DENIED` when
    ///   this device has no wipe or the user declines, `CTAP2_ERR_KEEPALIVE_CANCEL`,
    ///   `CTAP2_ERR_USER_ACTION_TIMEOUT`, or the authenticator's own failure.
    func reset(_ transaction: CTAPTransaction) async throws(CTAPError) {
        guard let wipe else {
            throw CTAPError(.operationDenied, "this authenticator cannot be reset through CTAP")
        }
        guard ContinuousClock.now < poweredUp.advanced(by: resetWindow) else {
            throw CTAPError(.notAllowed, "reset is allowed only within \(resetWindow) of power-up")
        }
        try await presence.require(UserPresenceRequest(command: .reset), in: transaction)
        try await authenticating(wipe)
    }
}
