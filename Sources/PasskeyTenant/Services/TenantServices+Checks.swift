import FoundationEssentials
import Logging
import WebAuthn

/// The checks and sessions every passkey ceremony shares, whichever API runs it.
extension TenantServices {
    /// The connection a `realm` names; the tenant's one when absent.
    func checkRealm(_ realm: String?) throws(TenantError) -> String {
        guard let realm, realm != configuration.connection else { return configuration.connection }
        throw .invalidRequest("Connection not found: \(realm.prefix(64))")
    }

    /// Refuses when `keys` are locked out.
    func checkAttempts(_ keys: [AttemptLimiter.Key]) async throws(TenantError) {
        if let wait = try await limiter.retryAfter(keys) {
            throw Self.tooManyAttempts(retryAfter: wait)
        }
    }

    /// The refusal of a locked-out key: `too_many_attempts` (429), to try again after `wait` seconds.
    static func tooManyAttempts(retryAfter wait: Int) -> TenantError {
        TenantError(.tooManyAttempts, status: 429, "Too many failed attempts; try again later.", retryAfter: wait)
    }

    /// Runs `body`; a refusal counts as a failed attempt of `keys`.
    func counting<T>(_ keys: [AttemptLimiter.Key], _ body: () async throws(TenantError) -> T) async throws(TenantError)
        -> T
    {
        do {
            return try await body()
        } catch {
            await recordFailure(error, keys)
            throw error
        }
    }

    /// Counts `error` as a failed attempt of `keys` when it is a refusal.
    ///
    /// The refusal is what the caller answers: when the store cannot count it (the database is
    /// down), that is logged, and the refusal still goes out.
    func recordFailure(_ error: TenantError, _ keys: [AttemptLimiter.Key]) async {
        guard error.countsAsFailedAttempt, !keys.isEmpty else { return }
        do {
            try await limiter.recordFailure(keys)
        } catch {
            logger.warning("A failed attempt was not counted: \(error.code.rawValue)")
        }
    }

    /// Opens a session for a ceremony whose options carry `challenge`, and returns its `auth_session`.
    func openSession(
        _ kind: PendingSession.Kind, clientID: String, connection: String, organization: String?, user: TenantUser?,
        challenge: [UInt8]
    ) async throws(TenantError) -> Secret {
        let secret = Secret.random()
        let session = PendingSession(
            kind: kind, clientID: clientID, connection: connection, organization: organization, challenge: challenge,
            user: user, expiresAt: clock.now().addingTimeInterval(configuration.sessionLifetime.seconds))
        try await store.insert(session, key: .digest(secret.digest))
        return secret
    }

    /// Takes the session an `auth_session` names: once, and only before it expires.
    func takeSession(_ secret: Secret?) async throws(TenantError) -> PendingSession {
        guard let secret else { throw .invalidRequest("auth_session: missing") }
        guard let session = try await store.take(PendingSession.self, key: .digest(secret.digest), at: clock.now())
        else {
            throw .invalidGrant("The auth_session is unknown, expired or already used.")
        }
        return session
    }

    /// The creation options of a signup or an enrollment, as Auth0 sends them (auth0-passkey-api.md
    /// §1.2): the RP ID as the RP's name, the user's highest-precedence identifier as its name
    /// (§18), a discoverable credential required, the session's lifetime as timeout, and no
    /// attestation, hints or extensions; `excluded`, when given, listed in `excludeCredentials` (§19.3).
    func registrationOptions(for user: TenantUser, excluding excluded: [TenantCredential]? = nil)
        -> RegistrationOptions
    {
        let name = configuration.identifiers.name(of: user.profile) ?? user.identifier
        return configuration.relyingParty.generateRegistrationOptions(
            rpName: configuration.relyingPartyID,
            user: PublicKeyCredentialUserEntityJSON(
                id: Base64URL(user.userHandle), name: name, displayName: user.profile.name ?? name),
            excludeCredentials: excluded.map { $0.map(\.descriptor) },
            residentKey: .required, extensions: nil, timeout: configuration.sessionLifetime)
    }

    /// A verification failure as the wire says it.
    func refused(_ error: WebAuthnError) -> TenantError {
        .invalidGrant("The passkey response does not verify (\(error.code)): \(error.reason)")
    }
}
