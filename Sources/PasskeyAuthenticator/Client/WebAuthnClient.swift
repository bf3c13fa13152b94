public import WebAuthn

/// The WebAuthn client: what a browser or an operating system does between a relying party's
/// options and an authenticator (WebAuthn L3 §5.1.3 `[[Create]]`, §5.1.4 `[[DiscoverFromExternalSource]]`).
///
/// From options JSON and the caller's origin it checks the origin and the RP ID, writes the
/// client data in the specification's member order, asks its ``authenticator`` (any
/// ``Authenticator``), runs the client extensions (`credProps`, `prf`) and answers with the JSON
/// that `PublicKeyCredential.toJSON()` gives.
///
/// ```swift
/// let client = WebAuthnClient(authenticator: SoftwareAuthenticator(store: store))
/// let origin = try WebOrigin("https://example.com")
/// let registration = try await client.create(creationOptions, origin: origin)
/// let assertion = try await client.get(requestOptions, origin: origin)
/// ```
public struct WebAuthnClient: Sendable {
    /// The authenticator every ceremony uses.
    public var authenticator: any Authenticator
    /// How the client fetches a relying party's related origins (WebAuthn L3 §5.11), when an
    /// origin asks for an RP ID it may not otherwise claim; `nil` refuses such a request.
    public var relatedOrigins: RelatedOriginsFetcher?

    /// Creates a client for an authenticator.
    ///
    /// - Parameters:
    ///   - authenticator: the authenticator to use.
    ///   - relatedOrigins: the fetcher of `/.well-known/webauthn` documents, for Related Origin
    ///     Requests; `nil` (the default) accepts only the origin's own domain and its parents.
    public init(authenticator: any Authenticator, relatedOrigins: RelatedOriginsFetcher? = nil) {
        self.authenticator = authenticator
        self.relatedOrigins = relatedOrigins
    }

    /// The RP ID a ceremony asking for `requested` from `origin` would run under, checked as a
    /// ceremony checks it before any authenticator is asked (WebAuthn L3 §5.1.3 steps 5–8,
    /// §5.1.4 steps 5–6): for a request that waits before it runs, such as a conditional get.
    ///
    /// - Parameters:
    ///   - requested: the options' RP ID, or `nil` for the origin's host.
    ///   - origin: the caller's origin.
    /// - Returns: the RP ID.
    /// - Throws: ``WebAuthnClientError`` `SecurityError`.
    public func relyingPartyID(_ requested: String?, for origin: WebOrigin) async throws(WebAuthnClientError)
        -> String
    {
        try await CallerOrigin.rpID(requested, for: origin, relatedOrigins: relatedOrigins)
    }

    /// Asks the authenticator, turning its failure into the client's.
    func asking<T>(_ body: () async throws(AuthenticatorError) -> T) async throws(WebAuthnClientError) -> T {
        do {
            return try await body()
        } catch {
            throw WebAuthnClientError(error)
        }
    }

    /// Asks the authenticator, and when user verification was only preferred and failed
    /// (`CTAP2_ERR_UV_INVALID`), asks again without it (WebAuthn L3 §5.4.6 `preferred`).
    func asking<Request, Response>(
        _ request: Request, droppingVerification: Bool, _ userVerification: WritableKeyPath<Request, Bool>,
        _ call: (Request) async throws(AuthenticatorError) -> Response
    ) async throws(WebAuthnClientError) -> Response {
        do {
            return try await call(request)
        } catch  where error.code == .uvInvalid && droppingVerification {
            var request = request
            request[keyPath: userVerification] = false
            return try await asking { () async throws(AuthenticatorError) in try await call(request) }
        } catch {
            throw WebAuthnClientError(error)
        }
    }

    /// The client data of a ceremony (WebAuthn L3 §5.8.1), for a same-origin caller or, with a
    /// top origin, a cross-origin iframe.
    static func clientData(
        _ type: CollectedClientData.CeremonyType, challenge: Base64URL, origin: WebOrigin, topOrigin: WebOrigin?
    ) -> CollectedClientData {
        CollectedClientData(
            type: type, challenge: challenge.bytes, origin: origin.description, crossOrigin: topOrigin != nil,
            topOrigin: topOrigin?.description)
    }

    /// Whether to ask for user verification, and whether it may be dropped if it fails
    /// (WebAuthn L3 §6.2.3 and the `preferred` rule of §5.4.6).
    static func userVerification(_ requirement: UserVerificationRequirement?, info: AuthenticatorInfo)
        throws(WebAuthnClientError) -> (ask: Bool, required: Bool)
    {
        try userVerification(requirement, supported: info.supportsUserVerification)
    }

    /// ``userVerification(_:info:)`` for an authenticator that can verify the user or not.
    static func userVerification(_ requirement: UserVerificationRequirement?, supported: Bool)
        throws(WebAuthnClientError) -> (ask: Bool, required: Bool)
    {
        switch requirement ?? .preferred {
        case .required:
            guard supported else {
                throw WebAuthnClientError(
                    .notAllowed, "user verification is required and the authenticator cannot verify")
            }
            return (true, true)
        case .discouraged:
            return (false, false)
        default:
            return (supported, false)
        }
    }

    /// Checks the challenge every ceremony needs.
    static func check(challenge: Base64URL) throws(WebAuthnClientError) {
        guard !challenge.bytes.isEmpty else {
            throw WebAuthnClientError(.syntax, "challenge is empty")
        }
    }
}
