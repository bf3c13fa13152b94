import WebAuthn

/// A Web Auth login between `/authorize` and the redirect back: the URL to open, and the
/// secrets that check and finish it (the `state`, the `nonce`, the PKCE verifier), which never
/// print.
///
/// Made by ``WebAuth/authorization()``; finished once by ``credentials(fromCallback:)``.
public struct WebAuthAuthorization: Sendable, CustomStringConvertible {
    /// The `/authorize` URL to open.
    public let url: String
    /// Where the tenant redirects back.
    public let redirectURL: String
    let state: String
    let nonce: String?
    let proofKey: ProofKey
    let maxAge: Int?
    let organization: String?
    let authentication: Authentication
    let clientAuthentication: ClientAuthentication
    let validator: IDTokenValidator

    /// Finishes the login with the URL the tenant redirected to: checks it is this login's
    /// redirect (`state`, RFC 6749 §10.12), reads its `code` or `error` (§4.1.2, §4.1.2.1),
    /// exchanges the code with the PKCE verifier (spec §14.3), as a confidential client when
    /// ``WebAuth/clientAuthentication`` says so (RFC 6749 §4.1.3), and validates the ID token with
    /// this login's `nonce`, `max_age` and organization (spec §14.5).
    ///
    /// - Parameter callbackURL: the redirect, query and fragment included.
    /// - Returns: credentials whose ID token passed validation.
    /// - Throws: ``WebAuthError``: ``WebAuthError/Code/invalidCallback``,
    ///   ``WebAuthError/Code/authenticationFailed``, ``WebAuthError/Code/noAuthorizationCode``,
    ///   ``WebAuthError/Code/pkceNotAllowed``, ``WebAuthError/Code/idTokenValidationFailed``.
    public func credentials(fromCallback callbackURL: String) async throws(WebAuthError) -> Credentials {
        guard let callback = WebAuthCallback(callbackURL, redirectURL: redirectURL) else {
            throw WebAuthError(.invalidCallback, "The redirect is not to this login's redirect URL.")
        }
        guard callback["state"] == state else {
            throw WebAuthError(.invalidCallback, "The redirect's state is not this login's.")
        }
        if let error = callback["error"] {
            let description = callback["error_description"] ?? error
            throw WebAuthError(
                .authenticationFailed, "The tenant refused the login: \(description)",
                cause: AuthenticationError(
                    info: ["error": .string(error), "error_description": .string(description)], statusCode: 302))
        }
        guard let code = callback["code"], !code.isEmpty else {
            throw WebAuthError(.noAuthorizationCode, "The redirect carries no authorization code.")
        }
        let credentials: Credentials
        do {
            credentials = try await authentication.codeExchange(
                withCode: code, codeVerifier: proofKey.verifier, redirectURI: redirectURL,
                clientAuthentication: clientAuthentication
            ).start()
        } catch  where error.info["error_description"]?.stringValue == "Unauthorized" {
            throw WebAuthError(
                .pkceNotAllowed, "The application may not use PKCE: make it a native application.", cause: error)
        } catch {
            throw WebAuthError(.authenticationFailed, "The tenant refused the code exchange.", cause: error)
        }
        do {
            try await validator.validate(
                credentials.idToken, nonce: nonce, maxAge: maxAge, organization: organization)
        } catch {
            throw WebAuthError(
                .idTokenValidationFailed, "The ID token failed validation: \(error.reason)", cause: error)
        }
        return credentials
    }

    /// The URL without its secrets.
    public var description: String { "WebAuthAuthorization(\(authentication.url)authorize, redirect \(redirectURL))" }
}
