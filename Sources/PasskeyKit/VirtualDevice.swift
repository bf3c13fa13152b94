public import PasskeyAuthenticator
public import WebAuthn

/// A device that holds passkeys, as the phone or laptop of a virtual user: an authenticator over a
/// credential store, and the origin its passkeys carry in their client data.
///
/// By default the authenticator is the software one with the platform profile, and the origin is
/// a native app's, `https://<rpId>` (DESIGN.md: Native origin), which Auth0 and the local tenant
/// accept for the RP ID. The store is any `CredentialStore`: the file store, the in-memory one,
/// or a backend whose keys live in an HSM.
///
/// ```swift
/// let phone = try VirtualDevice(store: await FileCredentialStore(directory: "/tmp/phone"))
/// let laptop = VirtualDevice(store: InMemoryCredentialStore(), profile: .securityKey)
/// ```
public struct VirtualDevice: Sendable {
    /// The authenticator; copy the device with another `simulation` to act
    /// out a failure in one ceremony.
    public var authenticator: SoftwareAuthenticator
    /// The origin of the client data; `nil` for `https://<rpId>`, a native app's.
    public var origin: WebOrigin?

    /// Creates a device over a store.
    ///
    /// - Parameters:
    ///   - store: where the passkeys and their keys are kept.
    ///   - profile: the kind of authenticator; a synced platform passkey by default.
    ///   - seed: derive credential IDs and keys from this seed, for reproducible runs.
    ///   - simulation: a failure to act out in every ceremony, or `nil`.
    ///   - origin: the origin of the client data; `nil` for `https://<rpId>`.
    public init(
        store: any CredentialStore, profile: AuthenticatorProfile = .platform, seed: Seed? = nil,
        simulation: Simulation? = nil, origin: WebOrigin? = nil
    ) {
        self.init(
            authenticator: SoftwareAuthenticator(store: store, profile: profile, seed: seed, simulation: simulation),
            origin: origin)
    }

    /// Creates a device around an authenticator.
    ///
    /// - Parameters:
    ///   - authenticator: the authenticator.
    ///   - origin: the origin of the client data; `nil` for `https://<rpId>`.
    public init(authenticator: SoftwareAuthenticator, origin: WebOrigin? = nil) {
        self.authenticator = authenticator
        self.origin = origin
    }

    /// The store the passkeys are kept in.
    public var store: any CredentialStore { authenticator.store }

    /// Makes a passkey for the relying party's creation options (WebAuthn L3 §5.1.3).
    ///
    /// - Parameters:
    ///   - options: the creation options, as the relying party sent them.
    ///   - rpID: the RP ID the ceremony is for, which the default origin is made from.
    /// - Returns: the registration response.
    /// - Throws: `WebAuthnClientError` with the DOMException name of the refusal.
    public func create(_ options: PublicKeyCredentialCreationOptionsJSON, rpID: String)
        async throws(WebAuthnClientError) -> RegistrationResponseJSON
    {
        try await WebAuthnClient(authenticator: authenticator).create(options, origin: try origin(rpID: rpID))
    }

    /// Signs the relying party's request options with the passkey `choice` picks (WebAuthn L3
    /// §5.1.4).
    ///
    /// - Parameters:
    ///   - options: the request options.
    ///   - rpID: the RP ID the ceremony is for.
    ///   - choice: which passkey the simulated user picks among several; the most recent by default.
    /// - Returns: the authentication response.
    /// - Throws: `WebAuthnClientError` with the DOMException name of the refusal.
    public func get(
        _ options: PublicKeyCredentialRequestOptionsJSON, rpID: String, choosing choice: AccountChoice = .mostRecent
    ) async throws(WebAuthnClientError) -> AuthenticationResponseJSON {
        var authenticator = authenticator
        authenticator.accountChoice = choice
        return try await WebAuthnClient(authenticator: authenticator).get(options, origin: try origin(rpID: rpID))
    }

    /// The origin of a ceremony for `rpID`: ``origin``, else `https://<rpId>`.
    ///
    /// - Throws: `WebAuthnClientError` with `SecurityError` when `rpID` makes no origin.
    public func origin(rpID: String) throws(WebAuthnClientError) -> WebOrigin {
        if let origin {
            return origin
        }
        do {
            return try WebOrigin("https://" + rpID)
        } catch {
            throw WebAuthnClientError(.security, "https://\(rpID) is not an origin: \(error.reason)")
        }
    }
}
