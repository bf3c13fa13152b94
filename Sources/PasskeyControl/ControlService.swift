public import Auth0Passkeys
public import PasskeyAuthenticator
public import PasskeyKit
public import WebAuthn

/// What the control server does, apart from HTTP: sessions, each holding virtual authenticators
/// (WebAuthn L3 §11, the WebDriver virtual-authenticator commands) and virtual users of Auth0
/// tenants whose passkeys live in one of them. `passkey serve` puts it behind HTTP and `passkey
/// mcp` behind MCP; a Swift test can call it directly.
///
/// The actor only keeps the tables: a ceremony or a flow reads its authenticator or user here and
/// runs outside, so concurrent ceremonies of one authenticator run in parallel, and its store
/// (an actor) orders what they write.
///
/// Why it stays one type (about 840 lines across this file and its extensions: ceremonies,
/// credentials, users, the page bridge): it is the one isolation domain of the sessions' tables,
/// and its invariants span them (ending a session or removing an authenticator revokes its
/// bridge capabilities and refuses its pending conditional gets in the same step, a user's
/// device is its authenticator's current state). What is not that table lives in types of its
/// own: ``VirtualAuthenticator``, the `ControlEventLog`, the conditional requests' queue
/// (`ConditionalQueue`), `BridgeGrant`, the client (`WebAuthnClient`) and the virtual users
/// (`VirtualUser`); the extensions are the public commands, each a few lines over those.
public actor ControlService {
    /// One session's authenticators and users.
    struct Session {
        var authenticators: [String: VirtualAuthenticator] = [:]
        var users: [String: ControlledUser] = [:]
        /// What happened to its authenticators' credentials.
        let events = ControlEventLog()
        /// Conditional gets of its pages, waiting for the test to pick a passkey.
        var conditional = ConditionalQueue()
    }

    private(set) var sessions: [String: Session] = [:]
    /// The page bridges handed out, by the SHA-256 of their capability.
    var bridgeGrants: [[UInt8]: BridgeGrant] = [:]
    /// The passphrase file stores are sealed with; a key file inside each store when `nil`.
    let passphrase: Passphrase?
    /// Who keeps the keys of file stores' credentials (a PKCS#11 token, say); each store's own
    /// sealing when `nil`.
    let custody: (any CredentialKeyCustody)?
    /// The transport virtual users reach their tenants through.
    let transport: any HTTPTransport
    /// Where ceremonies, flows and errors are counted.
    public nonisolated let metrics: ControlMetrics
    /// How ceremonies fetch a relying party's related origins (WebAuthn L3 §5.11); `nil` refuses
    /// an RP ID the origin may not claim by itself.
    public nonisolated let relatedOrigins: RelatedOriginsFetcher?
    /// Whether a site may use the authenticators, asked once per origin; every origin may when `nil`.
    nonisolated let consent: SiteConsent?
    /// The origins ``consent`` decided or is deciding, by their serialization.
    var siteDecisions: [String: SiteDecisionState] = [:]

    /// The libcurl settings of the default transport: up to 64 idle connections kept for
    /// concurrent users; a caller that trusts another CA sets `caBundlePath` and passes the
    /// transport.
    public static let transportConfiguration = CurlTransport.Configuration(maxIdleHandles: 64)

    /// Creates a service with no sessions.
    ///
    /// - Parameters:
    ///   - passphrase: the passphrase of file stores, or `nil` for each store's key file.
    ///   - custody: who keeps the keys of file stores' credentials, or `nil` for the stores
    ///     themselves; a store opens only with the custody it was made with.
    ///   - transport: the HTTP transport of virtual users; libcurl with
    ///     ``transportConfiguration`` by default.
    ///   - metrics: where to count; a registry of its own by default.
    ///   - relatedOrigins: how ceremonies (the page bridge's among them) fetch a relying party's
    ///     `/.well-known/webauthn` when an origin asks for an RP ID it may not claim by itself
    ///     (WebAuthn L3 §5.11): `RelatedOriginsFetcher.http(_:)` as a browser does, or `nil` (the
    ///     default, as for `WebAuthnClient`) to refuse such a request without a fetch.
    ///   - consent: asked before the first ceremony of each origin (``SiteConsent``); `nil` (the
    ///     default) lets every origin use the authenticators without asking.
    public init(
        passphrase: Passphrase? = nil,
        custody: (any CredentialKeyCustody)? = nil,
        transport: any HTTPTransport = CurlTransport(configuration: transportConfiguration),
        metrics: ControlMetrics = ControlMetrics(),
        relatedOrigins: RelatedOriginsFetcher? = nil,
        consent: SiteConsent? = nil
    ) {
        self.passphrase = passphrase
        self.custody = custody
        self.transport = transport
        self.metrics = metrics
        self.relatedOrigins = relatedOrigins
        self.consent = consent
    }

    // MARK: Sessions

    /// Starts a session (WebDriver New Session), with its own authenticators and users.
    ///
    /// - Returns: the session's ID.
    public func newSession() -> String {
        let id = Self.newID()
        sessions[id] = Session()
        return id
    }

    /// Ends a session (WebDriver Delete Session) and forgets its authenticators and users; their
    /// file stores stay on disk.
    ///
    /// - Throws: ``ControlError`` `invalid session id`.
    public func deleteSession(_ id: String) throws(ControlError) {
        guard let session = sessions.removeValue(forKey: id) else { throw .invalidSession(id) }
        bridgeGrants = bridgeGrants.filter { $0.value.session != id }
        session.events.finish()
        for request in session.conditional.pending {
            request.refuse(ControlError("NotAllowedError", status: 400, "the session ended"))
        }
    }

    /// The IDs of the open sessions.
    public var sessionIDs: [String] { sessions.keys.sorted() }

    // MARK: Authenticators

    /// Adds a virtual authenticator (WebAuthn L3 §11.2, Add Virtual Authenticator).
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - configuration: what it simulates.
    /// - Returns: the new authenticator's ID.
    /// - Throws: ``ControlError``: `invalid session id`, or `invalid argument` when its file store
    ///   does not open.
    public func addAuthenticator(session: String, _ configuration: VirtualAuthenticatorConfiguration)
        async throws(ControlError) -> String
    {
        _ = try self.session(session)
        let store: any CredentialStore
        if let directory = configuration.storeDirectory {
            do {
                store = try await FileCredentialStore(directory: directory, passphrase: passphrase, custody: custody)
            } catch {
                throw .invalidArgument("softpasskey:store: \(error)")
            }
        } else {
            store = InMemoryCredentialStore()
        }
        let id = Self.newID()
        // The session may have ended while the store opened.
        guard sessions[session] != nil else { throw .invalidSession(session) }
        sessions[session]?.authenticators[id] = VirtualAuthenticator(id: id, configuration: configuration, store: store)
        return id
    }

    /// Removes a virtual authenticator (WebAuthn L3 §11.3, Remove Virtual Authenticator); its
    /// file store stays on disk.
    ///
    /// - Throws: ``ControlError`` `invalid session id` or `invalid argument`.
    public func removeAuthenticator(session: String, _ id: String) throws(ControlError) {
        _ = try authenticator(session: session, id)
        sessions[session]?.authenticators[id] = nil
        bridgeGrants = bridgeGrants.filter { $0.value.authenticatorID != id }
        let pending = conditionalRequests(session: session) { $0.take { $0.authenticatorID == id } } ?? []
        for request in pending {
            request.refuse(ControlError("NotAllowedError", status: 400, "the authenticator was removed"))
        }
    }

    /// A virtual authenticator.
    ///
    /// - Throws: ``ControlError`` `invalid session id`, or `invalid argument` for an unknown ID.
    public func authenticator(session: String, _ id: String) throws(ControlError) -> VirtualAuthenticator {
        guard let authenticator = try self.session(session).authenticators[id] else {
            throw .invalidArgument("no virtual authenticator \(id)")
        }
        return authenticator
    }

    /// Sets whether user verification succeeds (WebAuthn L3 §11.8, Set User Verified).
    ///
    /// - Throws: ``ControlError`` `invalid session id` or `invalid argument`.
    public func setUserVerified(session: String, _ id: String, _ verified: Bool) throws(ControlError) {
        var authenticator = try authenticator(session: session, id)
        authenticator.setUserVerified(verified)
        sessions[session]?.authenticators[id] = authenticator
    }

    // MARK: Users

    /// Adds a virtual user of `tenant` whose passkeys live in the authenticator `authenticatorID`.
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - tenant: the tenant.
    ///   - authenticatorID: the authenticator holding the user's passkeys.
    ///   - origin: the origin of the user's client data; `https://<rpId>` (a native app's) when `nil`.
    /// - Returns: the user's ID.
    /// - Throws: ``ControlError`` `invalid session id` or `invalid argument`.
    public func addUser(session: String, tenant: Tenant, authenticatorID: String, origin: WebOrigin? = nil)
        throws(ControlError) -> String
    {
        _ = try authenticator(session: session, authenticatorID)
        let id = Self.newID()
        sessions[session]?.users[id] = ControlledUser(
            user: VirtualUser(tenant: tenant, device: nil), authenticatorID: authenticatorID, origin: origin)
        return id
    }

    /// Removes a virtual user; its passkeys stay in the authenticator.
    ///
    /// - Throws: ``ControlError`` `invalid session id` or `invalid argument`.
    public func removeUser(session: String, _ id: String) throws(ControlError) {
        _ = try controlledUser(session: session, id)
        sessions[session]?.users[id] = nil
    }

    /// A virtual user, with the current state of its authenticator as its device.
    ///
    /// - Throws: ``ControlError`` `invalid session id`, or `invalid argument` for an unknown user
    ///   or a removed authenticator.
    public func user(session: String, _ id: String) throws(ControlError) -> VirtualUser {
        let controlled = try controlledUser(session: session, id)
        guard let authenticator = sessions[session]?.authenticators[controlled.authenticatorID] else {
            throw .invalidArgument("the authenticator \(controlled.authenticatorID) of user \(id) was removed")
        }
        var user = controlled.user
        user.device = VirtualDevice(authenticator: authenticator.authenticator, origin: controlled.origin)
        return user
    }

    private func controlledUser(session: String, _ id: String) throws(ControlError) -> ControlledUser {
        guard let user = try self.session(session).users[id] else {
            throw .invalidArgument("no virtual user \(id)")
        }
        return user
    }

    /// The event log of a session.
    ///
    /// - Throws: ``ControlError`` `invalid session id`.
    func eventLog(session: String) throws(ControlError) -> ControlEventLog {
        try self.session(session).events
    }

    /// A session's queue of conditional requests, changed by `change`; `nil` when the session is gone.
    func conditionalRequests<T>(session: String, _ change: (inout ConditionalQueue) -> T) -> T? {
        guard sessions[session] != nil else { return nil }
        return change(&sessions[session]!.conditional)
    }

    private func session(_ id: String) throws(ControlError) -> Session {
        guard let session = sessions[id] else { throw .invalidSession(id) }
        return session
    }

    /// A new ID: 16 random bytes in base64url, 22 characters of RFC 3986 `unreserved`.
    static func newID() -> String {
        Base64URL.encode(SecureRandom.bytes(16))
    }
}

/// A virtual user as a session keeps it: the user (whose session lives in memory) and where its
/// passkeys are.
struct ControlledUser: Sendable {
    let user: VirtualUser
    let authenticatorID: String
    let origin: WebOrigin?
}
