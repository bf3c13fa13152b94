public import WebAuthn

/// `POST /embedded/authenticate?request=…`'s body **[local]**: the passkey's answer to the
/// pending challenge, or the user's refusal (after Beyond Identity's embedded `authenticate`).
///
/// ```
/// { "credential": AuthenticationResponseJSON }      PublicKeyCredential.toJSON(), WebAuthn L3 §5.1
/// { "error": "access_denied" }                      the user cancelled
/// ```
public struct EmbeddedAuthenticateRequest: Sendable, Hashable, Codable {
    /// The assertion, for a login.
    public var credential: PasskeyResponse?
    /// `access_denied`, for a refusal.
    public var error: String?

    /// An answer with a passkey's assertion.
    ///
    /// - Parameter credential: `PublicKeyCredential.toJSON()` of a get ceremony.
    public init(credential: PasskeyResponse) {
        self.credential = credential
        self.error = nil
    }

    /// A refusal: the user cancelled.
    ///
    /// - Parameter error: `access_denied`.
    public init(error: String) {
        self.credential = nil
        self.error = error
    }
}

/// `GET /embedded/authenticate?request=…`'s answer **[local]**: the options of
/// `navigator.credentials.get` (WebAuthn L3 §5.1.10's JSON, base64url members), discoverable.
///
/// ```
/// { "publicKey": PublicKeyCredentialRequestOptionsJSON }
/// ```
public struct EmbeddedOptionsResponse: Sendable, Hashable, Codable {
    /// The options; a fresh challenge on every call.
    public var publicKey: PublicKeyCredentialRequestOptionsJSON

    /// Creates an answer.
    ///
    /// - Parameter publicKey: the options.
    public init(publicKey: PublicKeyCredentialRequestOptionsJSON) {
        self.publicKey = publicKey
    }
}

/// `POST /embedded/authenticate?request=…`'s answer **[local]**: where the app sends the browser
/// next, in the same cookie store as the one that opened `/authorize`.
///
/// ```
/// { "redirectUrl": "https://TENANT/embedded/continue?request=…" }        a verified assertion
/// { "redirectUrl": "REDIRECT_URI?error=access_denied&error_description=…&state=…" }   a refusal
/// ```
///
/// The URL is one-time and short-lived, a capability: a ``Secret``, so it never prints.
public struct EmbeddedAuthenticateResponse: Sendable, Hashable, Codable {
    /// Where the browser goes.
    public var redirectUrl: Secret

    /// Creates an answer.
    ///
    /// - Parameter redirectUrl: the URL.
    public init(redirectUrl: Secret) {
        self.redirectUrl = redirectUrl
    }
}
