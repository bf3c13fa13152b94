public import FoundationEssentials
public import WebAuthn

/// The platform passkey provider, shaped like Apple's
/// `ASAuthorizationPlatformPublicKeyCredentialProvider`, over any ``Authenticator``.
///
/// A native app's passkey ceremonies carry the origin `https://<relyingPartyIdentifier>`
/// (DESIGN.md: "Native origin"). Results conform to ``SignupPasskey`` and ``LoginPasskey``, so
/// they drive Auth0's passkey signup, login and enrollment as an iPhone's would.
///
/// ```swift
/// let provider = PlatformCredentialProvider(
///     relyingPartyIdentifier: challenge.relyingPartyID,
///     authenticator: SoftwareAuthenticator(store: store))
/// let request = provider.createCredentialRegistrationRequest(
///     challenge: challenge.challengeData, name: challenge.userName, userID: challenge.userID)
/// let passkey = try await provider.register(request)
/// ```
public struct PlatformCredentialProvider: Sendable {
    /// The relying party identifier (the RP ID).
    public let relyingPartyIdentifier: String
    /// The authenticator that makes and uses the passkeys.
    public var authenticator: any Authenticator

    /// Creates a provider for one relying party.
    ///
    /// - Parameters:
    ///   - relyingPartyIdentifier: the RP ID, a domain.
    ///   - authenticator: the authenticator to use.
    public init(relyingPartyIdentifier: String, authenticator: any Authenticator) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.authenticator = authenticator
    }

    /// Starts a registration.
    ///
    /// - Parameters:
    ///   - challenge: the relying party's challenge.
    ///   - name: the account name.
    ///   - userID: the user handle.
    /// - Returns: a request whose other settings have Apple's defaults.
    public func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> PlatformCredentialRegistrationRequest
    {
        PlatformCredentialRegistrationRequest(
            relyingPartyIdentifier: relyingPartyIdentifier, challenge: challenge, name: name, userID: userID)
    }

    /// Starts a sign-in.
    ///
    /// - Parameter challenge: the relying party's challenge.
    /// - Returns: a request for any passkey of the relying party.
    public func createCredentialAssertionRequest(challenge: Data) -> PlatformCredentialAssertionRequest {
        PlatformCredentialAssertionRequest(relyingPartyIdentifier: relyingPartyIdentifier, challenge: challenge)
    }

    /// The origin a native app's ceremonies carry.
    ///
    /// - Throws: `SecurityError` when the relying party identifier is not a host name.
    public var origin: WebOrigin {
        get throws(WebAuthnClientError) {
            do {
                return try WebOrigin("https://" + relyingPartyIdentifier)
            } catch {
                throw WebAuthnClientError(.security, "\"\(relyingPartyIdentifier)\" is not a relying party identifier")
            }
        }
    }

    /// Registers a passkey.
    ///
    /// - Parameter request: the registration request.
    /// - Returns: the new passkey.
    /// - Throws: ``WebAuthnClientError`` as ``WebAuthnClient/create(_:origin:topOrigin:)`` does.
    public func register(_ request: PlatformCredentialRegistrationRequest) async throws(WebAuthnClientError)
        -> PlatformCredentialRegistration
    {
        let client = WebAuthnClient(authenticator: authenticator)
        return PlatformCredentialRegistration(try await client.create(request.options, origin: origin))
    }

    /// Signs in with a passkey.
    ///
    /// - Parameter request: the assertion request.
    /// - Returns: the assertion.
    /// - Throws: ``WebAuthnClientError`` as ``WebAuthnClient/get(_:origin:topOrigin:)`` does.
    public func assert(_ request: PlatformCredentialAssertionRequest) async throws(WebAuthnClientError)
        -> PlatformCredentialAssertion
    {
        let client = WebAuthnClient(authenticator: authenticator)
        let response = try await client.get(request.options, origin: origin)
        do {
            return try PlatformCredentialAssertion(response)
        } catch {
            throw WebAuthnClientError(.notAllowed, "the authenticator returned no user handle")
        }
    }
}
