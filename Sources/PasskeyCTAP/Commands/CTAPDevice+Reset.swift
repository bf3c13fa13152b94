public import PasskeyAuthenticator

extension CTAPDevice {
    /// `authenticatorReset` (CTAP 2.1 §6.6): within ``resetWindow`` of power-up and after the
    /// user's presence, wipes every credential, the PIN state (PIN, retries, minimum length,
    /// alwaysUv) and the large-blob array, and ends the pinUvAuthToken.
    ///
    /// - Throws: `CTAP2_ERR_NOT_ALLOWED` after the window, `CTAP2_ERR_OPERATION_DENIED` when
    ///   this device has no wipe or the user declines, `CTAP2_ERR_KEEPALIVE_CANCEL`,
    ///   `CTAP2_ERR_USER_ACTION_TIMEOUT`, or the authenticator's own failure.
    func reset(_ transaction: CTAPTransaction) async throws(CTAPError) {
        guard let wipe else {
            throw CTAPError(.operationDenied, "this authenticator cannot be reset through CTAP")
        }
        guard clock.now() < poweredUp.advanced(by: resetWindow) else {
            throw CTAPError(.notAllowed, "reset is allowed only within \(resetWindow) of power-up")
        }
        try await presence.require(UserPresenceRequest(command: .reset), in: transaction)
        try await authenticating(wipe)
        pin = PINSession()
        try await updateDeviceState { $0 = CTAPDeviceState() }
        try await clearLargeBlobs()
    }
}

extension CTAPDevice {
    /// The `wipe` of a device whose authenticator keeps its credentials in `store`: deletes
    /// every credential it lists, as authenticatorReset must (CTAP 2.1 §6.6). Records the store
    /// cannot read are left alone.
    ///
    /// Pass it only where a client may really erase the store, such as a test store or a device
    /// store of its own: Reset is a user's wish to start over, gated by presence and the
    /// power-up window, not by any PIN.
    ///
    /// - Parameter store: the authenticator's credential store.
    /// - Returns: the closure for
    ///   ``init(authenticator:state:presence:userVerification:transports:resetWindow:wipe:clock:credentials:)``.
    public static func wiping(_ store: any CredentialStore) -> @Sendable () async throws(AuthenticatorError) -> Void {
        { () async throws(AuthenticatorError) in
            do throws(StoreError) {
                for credential in try await store.all().credentials {
                    try await store.delete(id: credential.id)
                }
            } catch {
                throw AuthenticatorError(error)
            }
        }
    }
}
