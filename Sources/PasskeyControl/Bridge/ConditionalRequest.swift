import PasskeyAuthenticator
public import WebAuthn

/// A page's `navigator.credentials.get({mediation: "conditional"})` (WebAuthn L3 §5.1.4 with
/// conditional mediation): it waits, as autofill waits for a person, until the test picks a
/// passkey or the page aborts it.
struct ConditionalRequest: Sendable {
    /// The page's ID for it, to abort it by.
    let id: String
    let authenticatorID: String
    let options: PublicKeyCredentialRequestOptionsJSON
    let origin: WebOrigin
    let topOrigin: WebOrigin?
    /// The RP ID it runs under, checked when it was made.
    let rpID: String
    /// Where its outcome goes.
    let continuation: CheckedContinuation<Result<ClientAssertion, ControlError>, Never>

    /// Ends the request with a refusal.
    func refuse(_ error: ControlError) {
        continuation.resume(returning: .failure(error))
    }

    /// The refusal of a request its page aborted (WebAuthn L3 §5.6).
    static let aborted = ControlError("AbortError", status: 400, "the page aborted")
}

/// What the test's pick of a conditional request gave: the request and the assertion its page got.
public struct ConditionalPick: Sendable, Encodable {
    /// The page's ID of the request.
    public let requestId: String
    /// The page's origin.
    public let origin: String
    /// The RP ID.
    public let rpId: String
    /// The assertion the page received.
    public let credential: AuthenticationResponseJSON
}
