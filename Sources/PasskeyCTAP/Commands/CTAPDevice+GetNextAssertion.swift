import PasskeyAuthenticator
import WebAuthn

/// The assertions an authenticatorGetAssertion counted in `numberOfCredentials` and has not yet
/// returned (CTAP 2.1 §6.2.2 step 7, §6.3): the request as first asked, the credentials still to
/// sign with, newest first, and when the 30-second timer of §6.3 runs out. Any other command
/// discards them.
struct PendingAssertions: Sendable {
    var request: GetAssertionRequest
    var remaining: [[UInt8]]
    var expires: ContinuousClock.Instant
}

extension CTAPDevice {
    /// How long a client has for each authenticatorGetNextAssertion (§6.3: 30 seconds).
    static let nextAssertionWindow = Duration.seconds(30)

    /// The discoverable credentials of `rpID` this request may sign with, newest first: those
    /// whose credProtect policy admits it (§6.2.2 step 7, §12.1; no allow list here). Empty
    /// without a credential store, and then the authenticator chooses one itself.
    func discoverableCandidates(rpID: String, userVerified: Bool) async throws(CTAPError) -> [[UInt8]] {
        guard let credentials else { return [] }
        var candidates: [[UInt8]] = []
        do throws(StoreError) {
            for summary in try await credentials.summaries(rpID: rpID) where summary.discoverable {
                guard let stored = try await credentials.credential(id: summary.id) else { continue }
                let policy = stored.credentialProtection ?? .userVerificationOptional
                if policy.permits(userVerified: userVerified, allowListed: false) {
                    candidates.append(stored.id)
                }
            }
        } catch {
            throw CTAPError(.other, "the credential store cannot be read: \(error)")
        }
        return candidates
    }

    /// `authenticatorGetNextAssertion` (§6.3): the next credential counted by the last
    /// getAssertion signs the same client data hash, with the flags that request had; no
    /// second presence check.
    ///
    /// - Throws: `CTAP2_ERR_NOT_ALLOWED` when no getAssertion counted more credentials, when the
    ///   last were returned, or after the 30-second timer; the authenticator's own failure.
    func getNextAssertion(_ pending: PendingAssertions?) async throws(CTAPError) -> CBOR {
        guard var pending, clock.now() < pending.expires, let next = pending.remaining.first else {
            throw CTAPError(.notAllowed, "no getAssertion has further credentials to return")
        }
        pending.remaining.removeFirst()
        var request = pending.request
        request.allowList = [next]
        let response = try await authenticating { () async throws(AuthenticatorError) in
            try await authenticator.getAssertion(request)
        }
        if !pending.remaining.isEmpty {
            pending.expires = clock.now().advanced(by: Self.nextAssertionWindow)
            pendingAssertions = pending
        }
        return Self.assertionResponse(response, numberOfCredentials: nil)
    }

    /// An assertion as CTAP encodes it (§6.2 response, §6.3).
    ///
    /// ```
    /// { 0x01 credential: {"id": bytes, "type": "public-key"}, 0x02 authData: bytes,
    ///   0x03 signature: bytes, ? 0x04 user: {"id": bytes}, ? 0x05 numberOfCredentials: uint,
    ///   ? 0x07 largeBlobKey: bytes }
    /// ```
    static func assertionResponse(_ response: GetAssertionResponse, numberOfCredentials: Int?) -> CBOR {
        var answer: [CBOR: CBOR] = [
            1: ["id": .bytes(response.credentialID), "type": "public-key"],
            2: .bytes(response.authenticatorData.bytes), 3: .bytes(response.signature),
        ]
        if let userHandle = response.userHandle {
            // §6.2.2 step 12: without a display, the user's ID only.
            answer[4] = ["id": .bytes(userHandle)]
        }
        if let numberOfCredentials {
            answer[5] = CBOR(numberOfCredentials)
        }
        if let key = response.largeBlobKey {
            answer[7] = .bytes(key.withUnsafeBytes { Array($0) })
        }
        return .map(answer)
    }
}
