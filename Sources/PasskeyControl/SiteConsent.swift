public import WebAuthn

/// Whether a site may use the authenticators of a ``ControlService``: the question a browser asks
/// before the first ceremony of a site (a permission prompt), asked through this hook.
///
/// The service asks once per origin, before the first ceremony (`create`, `get`; a conditional
/// `get` when a passkey is picked for it, as a browser asks only once the person picks from
/// autofill) from an origin it has not decided, and keeps the answer for its lifetime; ceremonies of
/// that origin arriving meanwhile wait for the same answer, so a site is asked one question at a
/// time. A refusal is `NotAllowedError`, the name and words a browser uses when the user cancels
/// (WebAuthn L3 §5.1.3 step 22, §5.1.4.1 step 20: "the user cancelled"), so a site cannot tell a
/// refusal from a cancelled dialog. Where the answers persist (`SiteDecisions` of
/// `PasskeyBrowser`, in the store's directory) is the hook's business.
///
/// ```swift
/// let consent = SiteConsent { request in
///     request.origin.host.hasSuffix(".example.com")
/// }
/// let service = ControlService(consent: consent)
/// ```
public struct SiteConsent: Sendable {
    /// The first ceremony an origin asks for: what the question is about.
    public struct Request: Sendable, Hashable {
        /// The caller's origin, the one decided for.
        public let origin: WebOrigin
        /// The top-level origin of a cross-origin frame, or `nil` for a top-level page.
        public let topOrigin: WebOrigin?
        /// The ceremony asked for.
        public let operation: ControlMetrics.Operation
        /// The RP ID the options name, or `nil` for the origin's host.
        public let rpID: String?

        /// Creates a request.
        ///
        /// - Parameters:
        ///   - origin: the caller's origin.
        ///   - topOrigin: the top-level origin of a cross-origin frame.
        ///   - operation: `create` or `get`.
        ///   - rpID: the options' RP ID.
        public init(origin: WebOrigin, topOrigin: WebOrigin?, operation: ControlMetrics.Operation, rpID: String?) {
            self.origin = origin
            self.topOrigin = topOrigin
            self.operation = operation
            self.rpID = rpID
        }
    }

    /// Decides for one origin: `true` allows it, `false` refuses it; a thrown ``ControlError`` refuses
    /// this ceremony (nothing is decided, and the next one asks again).
    public var decide: @Sendable (_ request: Request) async throws(ControlError) -> Bool

    /// Creates the hook.
    ///
    /// - Parameter decide: answers whether the request's origin may use the authenticators; asked
    ///   once per origin.
    public init(decide: @escaping @Sendable (_ request: Request) async throws(ControlError) -> Bool) {
        self.decide = decide
    }

    /// The refusal of an origin the hook refused: `NotAllowedError` as Chromium words it when the
    /// user cancels, for every origin alike.
    static let refusal = ControlError(
        "NotAllowedError", status: 400,
        "The operation either timed out or was not allowed. "
            + "See: https://www.w3.org/TR/webauthn-2/#sctn-privacy-considerations-client.")
}
