public import PasskeyAuthenticator
public import WebAuthn

/// A device that holds passkeys, as the phone or laptop of a virtual user: any `Authenticator`,
/// the store its passkeys are kept in when the device can read it, and the origin its passkeys
/// carry in their client data.
///
/// By default the authenticator is the software one with the platform profile, and the origin is
/// a native app's, `https://<rpId>` (DESIGN.md: Native origin), which Auth0 and the local tenant
/// accept for the RP ID. The store is any `CredentialStore`: the file store, the in-memory one,
/// or a backend whose keys live in an HSM. Any other authenticator (a hardware token, one of your
/// own) is a device too: the flows only ask it to make and use passkeys (CTAP 2.1 §6.1, §6.2).
///
/// ```swift
/// let phone = try VirtualDevice(store: await FileCredentialStore(directory: "/tmp/phone"))
/// let laptop = VirtualDevice(store: InMemoryCredentialStore(), profile: .securityKey)
/// let token = VirtualDevice(authenticator: myAuthenticator)
/// ```
public struct VirtualDevice: Sendable {
    /// The authenticator every ceremony runs on.
    public var authenticator: any Authenticator
    /// Where the authenticator keeps its passkeys, when the device can read that: enrollment
    /// looks there for a passkey of the user, login lists the passkeys chosen among, and a
    /// passkey the tenant refuses is deleted from it. `nil` when the authenticator keeps its
    /// passkeys to itself.
    public var store: (any CredentialStore)?
    /// The origin of the client data; `nil` for `https://<rpId>`, a native app's.
    public var origin: WebOrigin?

    /// Creates a device with the software authenticator over a store.
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

    /// Creates a device around any authenticator.
    ///
    /// - Parameters:
    ///   - authenticator: the authenticator.
    ///   - store: where it keeps its passkeys, if the device may read and delete them; a
    ///     `SoftwareAuthenticator`'s own store when `nil`.
    ///   - origin: the origin of the client data; `nil` for `https://<rpId>`.
    public init(authenticator: any Authenticator, store: (any CredentialStore)? = nil, origin: WebOrigin? = nil) {
        self.authenticator = authenticator
        self.store = store ?? (authenticator as? SoftwareAuthenticator)?.store
        self.origin = origin
    }

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
    /// The simulated user's choice is the software authenticator's account picker
    /// (`SoftwareAuthenticator.accountChoice`); any other authenticator picks as it does itself,
    /// so only `AccountChoice.mostRecent`, leaving the pick to it, applies there.
    ///
    /// - Parameters:
    ///   - options: the request options.
    ///   - rpID: the RP ID the ceremony is for.
    ///   - choice: which passkey the simulated user picks among several; the most recent by default.
    /// - Returns: the authentication response.
    /// - Throws: `WebAuthnClientError` with the DOMException name of the refusal;
    ///   `NotSupportedError` for a choice an authenticator other than the software one was given.
    public func get(
        _ options: PublicKeyCredentialRequestOptionsJSON, rpID: String, choosing choice: AccountChoice = .mostRecent
    ) async throws(WebAuthnClientError) -> AuthenticationResponseJSON {
        var authenticator = authenticator
        if var software = authenticator as? SoftwareAuthenticator {
            software.accountChoice = choice
            authenticator = software
        } else if choice != .mostRecent {
            throw WebAuthnClientError(
                .notSupported, "this authenticator picks the passkey itself; a simulated choice needs the software one")
        }
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
