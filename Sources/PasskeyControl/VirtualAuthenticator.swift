public import PasskeyAuthenticator

/// One virtual authenticator of a control session (WebAuthn L3 §11.2): its W3C configuration,
/// and the software authenticator and store that configuration describes.
public struct VirtualAuthenticator: Sendable {
    /// The authenticator's ID, up to 48 characters of RFC 3986 `unreserved`.
    public let id: String
    /// The configuration it was added with, as changed since (Set User Verified).
    public private(set) var configuration: VirtualAuthenticatorConfiguration
    /// The authenticator every ceremony runs on.
    public private(set) var authenticator: SoftwareAuthenticator

    /// Creates a virtual authenticator over `store`, running the configuration's profile as the
    /// store's keys allow (`AuthenticatorProfile.narrowed(for:)`).
    ///
    /// - Parameters:
    ///   - id: its ID.
    ///   - configuration: what it simulates.
    ///   - store: where its credentials live.
    public init(id: String, configuration: VirtualAuthenticatorConfiguration, store: any CredentialStore) {
        self.id = id
        self.configuration = configuration
        self.authenticator = SoftwareAuthenticator(
            store: store, profile: configuration.authenticatorProfile.narrowed(for: store),
            simulation: configuration.simulation)
    }

    /// The store its credentials live in.
    public var store: any CredentialStore { authenticator.store }

    /// Sets whether user verification succeeds (WebAuthn L3 §11.8, Set User Verified).
    mutating func setUserVerified(_ verified: Bool) {
        configuration.isUserVerified = verified
        authenticator.simulation = configuration.simulation
    }
}
