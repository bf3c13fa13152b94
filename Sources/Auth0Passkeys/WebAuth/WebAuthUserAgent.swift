/// What shows the tenant's login page to the user and brings back where it redirected:
/// the system browser with a loopback redirect (RFC 8252 §7.3), a browser driven by a test, or
/// anything else that can follow redirects.
///
/// ``WebAuth/start(using:)`` calls it once with the `/authorize` URL; ``WebAuth/clearSession(federated:using:)``
/// once with the `/v2/logout` URL.
public protocol WebAuthUserAgent: Sendable {
    /// Opens `url` and returns the first URL the browser is sent to that starts with
    /// `redirectURL`, query and fragment included.
    ///
    /// - Parameters:
    ///   - url: the tenant's `/authorize` or `/v2/logout` URL.
    ///   - redirectURL: the application's callback or return URL.
    /// - Returns: the URL the tenant redirected to.
    /// - Throws: when the page could not be shown, the user gave up, or nothing came back in time;
    ///   ``WebAuth`` reports it as ``WebAuthError/Code/userAgentFailed`` with this error as cause,
    ///   or as ``WebAuthError/Code/userCancelled`` for a `CancellationError`.
    func open(_ url: String, awaitingRedirectTo redirectURL: String) async throws -> String
}
