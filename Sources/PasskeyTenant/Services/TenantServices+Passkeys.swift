import FoundationEssentials
import WebAuthn

extension TenantServices {
    /// Verifies a discoverable login: finds the credential by its ID, verifies the assertion
    /// against its record (user handle, counter, BE) and stores the new counter and BS
    /// (WebAuthn L3 §7.2). The native grant's and the login page's one verification.
    ///
    /// Failures count against the credential's user, who is locked out after too many.
    ///
    /// - Parameters:
    ///   - response: the client's `toJSON()`.
    ///   - challenge: the challenge issued.
    ///   - relyingParty: the policy; the configuration's, or the login page's with its origin.
    /// - Returns: the user who logged in.
    /// - Throws: `invalid_request` for a response that is not an assertion (a missing `type`
    ///   included); `invalid_grant` for an unknown passkey or a failed check, `wrong-credential-type`
    ///   for a `type` other than `public-key` (WebAuthn L3 §5.1, checked by the relying party before
    ///   §7.2); `too_many_attempts` (429) for a locked-out user.
    func verifiedLogin(_ response: PasskeyResponse, challenge: [UInt8], relyingParty: RelyingParty)
        async throws(TenantError) -> TenantUser
    {
        let (user, update) = try await verifiedAssertion(response, challenge: challenge, relyingParty: relyingParty)
        try await record(update, of: user.id, refresh: nil)
        return user
    }

    /// ``verifiedLogin(_:challenge:relyingParty:)`` that leaves storing to the caller: the user,
    /// and what the assertion changes, to store with ``record(_:of:refresh:)`` (the webauthn
    /// grant stores it with the login's refresh token, in one transaction).
    func verifiedAssertion(_ response: PasskeyResponse, challenge: [UInt8], relyingParty: RelyingParty)
        async throws(TenantError) -> (user: TenantUser, update: AssertionUpdate)
    {
        let assertion = try response.authenticationResponse()
        // The credential, its owner and the owner's failures, read together (checkAttempts's check).
        let now = clock.now()
        guard
            let (credential, user, failures) = try await store.loginCredential(
                id: assertion.rawId.bytes, failuresSince: limiter.since(now))
        else {
            throw .invalidGrant("The passkey is not registered with this tenant.")
        }
        let key = AttemptLimiter.Key.user(user.id)
        if let wait = limiter.retryAfter([key], windows: failures.map { [key.storageKey: $0] } ?? [:], at: now) {
            throw Self.tooManyAttempts(retryAfter: wait)
        }
        return try await counting([.user(user.id)]) {
            () throws(TenantError) -> (user: TenantUser, update: AssertionUpdate) in
            let verified: VerifiedAuthentication
            do throws(WebAuthnError) {
                // A discoverable login: the user is known only through the assertion's user handle.
                verified = try relyingParty.verifyAuthentication(
                    assertion, challenge: challenge, credential: credential.record(userHandle: user.userHandle),
                    userIdentified: .byResponse)
            } catch {
                throw refused(error)
            }
            return (
                user,
                AssertionUpdate(
                    credentialID: credential.id, previousSignCount: credential.signCount,
                    signCount: verified.signCount, backedUp: verified.backupState, time: clock.now())
            )
        }
    }

    /// Stores a verified assertion's update, with the login's refresh token when it has one
    /// (``TenantStore/recordAssertion(_:refresh:)``).
    ///
    /// - Throws: `invalid_grant`, counted against `userID`, when the counter moved since the
    ///   assertion was verified (another login with the same passkey); nothing is stored then.
    func record(_ update: AssertionUpdate, of userID: String, refresh: (grant: RefreshGrant, key: StoredValue)?)
        async throws(TenantError)
    {
        try await counting([.user(userID)]) { () async throws(TenantError) in
            guard try await store.recordAssertion(update, refresh: refresh) else {
                throw .invalidGrant("The passkey's signature counter moved during this login; try again.")
            }
        }
    }

    /// A new user for a signup with `profile` on `connection`, not stored yet (auth0-passkey-api.md
    /// §1.1, §18): the native signup's and the login page's one set of rules.
    ///
    /// - Throws: `invalid_request` for a profile that lacks a required identifier, gives one the
    ///   connection turned off, has a malformed property (a phone number not in E.164, a username
    ///   outside the connection's rules), too much metadata, or an identifier that belongs to a user
    ///   already (`The user already exists.`).
    func newUser(profile: UserProfile, metadata: [String: String], connection: String) async throws(TenantError)
        -> TenantUser
    {
        try configuration.identifiers.check(profile, connection: connection)
        try profile.validate()
        guard metadata.count <= 10, metadata.allSatisfy({ !$0.key.isEmpty && $0.value.count <= 500 }) else {
            throw .invalidRequest("user_metadata: at most 10 string fields of at most 500 characters")
        }
        if try await store.takenIdentifier(of: profile) != nil {
            throw Self.userAlreadyExists
        }
        return TenantUser.new(profile: profile, metadata: metadata, at: clock.now())
    }

    /// Verifies a registration against the challenge it answers and returns the credential to
    /// store (WebAuthn L3 §7.1); checking that the credential ID is new is the store's.
    ///
    /// - Parameters:
    ///   - response: the client's `toJSON()`.
    ///   - challenge: the challenge issued.
    ///   - relyingParty: the policy; the configuration's, or the login page's with its origin.
    ///   - userID: the owner.
    ///   - userAgent: the registering client's `User-Agent`, if known.
    /// - Throws: `invalid_request` for a response that is not a registration (a missing `type`
    ///   included); `invalid_grant` naming the check that failed, `wrong-credential-type` for a
    ///   `type` other than `public-key` (WebAuthn L3 §5.1, checked by the relying party before §7.1).
    func verifiedPasskey(
        _ response: PasskeyResponse, challenge: [UInt8], relyingParty: RelyingParty, userID: String,
        userAgent: String?
    ) throws(TenantError) -> TenantCredential {
        let registration = try response.registrationResponse()
        let verified: VerifiedRegistration
        do throws(WebAuthnError) {
            verified = try relyingParty.verifyRegistration(registration, challenge: challenge)
        } catch {
            throw refused(error)
        }
        return TenantCredential.registered(
            verified, userID: userID, transports: registration.response.transports?.map(\.rawValue) ?? [],
            userAgent: userAgent.map { String($0.prefix(256)) }, at: clock.now())
    }

    /// Auth0's refusal of a signup whose identifier belongs to a user already
    /// (auth0-passkey-api.md §18).
    static let userAlreadyExists = TenantError.invalidRequest("The user already exists.")

    /// The algorithm of a passkey's public key given as a COSE_Key (RFC 9052 §7) rather than
    /// attested at a registration: a posted passkey's (auth0-passkey-api.md §15.3) or an imported
    /// one's.
    ///
    /// - Throws: `invalid_request` naming `field` for bytes that are no COSE_Key, or a key of an
    ///   algorithm the tenant does not allow.
    func givenKeyAlgorithm(_ bytes: [UInt8], field: String) throws(TenantError) -> COSEAlgorithm {
        let key: COSEKey
        do throws(WebAuthnError) {
            key = try COSEKey(bytes: bytes)
        } catch {
            throw .invalidRequest("\(field): not a COSE_Key (\(error.reason))")
        }
        guard let algorithm = key.algorithm, configuration.algorithms.contains(algorithm) else {
            let allowed = configuration.algorithms.map(\.description).joined(separator: ", ")
            throw .invalidRequest("\(field): the key's algorithm must be one of \(allowed)")
        }
        return algorithm
    }
}
