import WebAuthn

extension SoftwareAuthenticator {
    /// Signs an assertion as CTAP 2.1 §6.2.2 describes.
    ///
    /// The candidates are the allow list's credentials scoped to the RP ID or, with an empty
    /// allow list, the RP's discoverable credentials (step 7); ``accountChoice`` picks one of
    /// several, the most recent by default, never prompting. The user acts (steps 5–9). The
    /// credential keeps the behaviour of the profile that made it (``profile(of:)``): one that
    /// counts signatures advances the credential's counter durably before the signature exists
    /// (WebAuthn L3 §6.1.1); the platform profile writes nothing. BE and BS are the credential's.
    public func getAssertion(_ request: GetAssertionRequest) async throws(AuthenticatorError) -> GetAssertionResponse {
        try Self.check(clientDataHash: request.clientDataHash)
        let stored = try await chooseCredential(for: request)
        let behaviour = profile(of: stored)
        if request.userVerification && !behaviour.supportsUserVerification {
            throw AuthenticatorError(.unsupportedOption, "this authenticator cannot verify the user")
        }
        let gesture = try gesture(
            presence: request.userPresence, verification: request.userVerification,
            alwaysVerifies: behaviour.alwaysVerifiesUser)
        let signCount =
            behaviour.countsSignatures
            ? try await storing { () async throws(StoreError) in try await store.incrementCounter(id: stored.id) }
            : 0
        let authenticatorData = AuthenticatorData(
            rpIDHash: SHA256Digest.hash(Array(request.rpID.utf8)), flags: flags(gesture, stored), signCount: signCount,
            extensions: try await assertionExtensions(
                request, stored, behaviour: behaviour, userVerified: gesture.userVerified))
        return GetAssertionResponse(
            credentialID: stored.id, authenticatorData: authenticatorData,
            signature: try await sign(authenticatorData, request.clientDataHash, with: stored),
            userHandle: stored.userHandle.isEmpty ? nil : stored.userHandle,
            attachment: behaviour.attachment == profile.attachment ? nil : behaviour.attachment,
            largeBlobKey: request.largeBlobKey && profile.supports("largeBlobKey")
                ? try await largeBlobKey(of: stored) : nil)
    }

    /// The hmac-secret output (CTAP 2.1 §12.5): the salts read with the shared secret, their
    /// HMACs under the credential's `CredRandomWithUV` or `CredRandomWithoutUV` computed by the
    /// store, as the user was verified or not; `nil` when not asked for or when the credential
    /// has no seeds.
    func hmacSecretOutput(_ input: HMACSecretInput?, _ stored: StoredCredential, userVerified: Bool)
        async throws(AuthenticatorError) -> [UInt8]?
    {
        guard let input else { return nil }
        let (salts, sharedSecret) = try HMACSecret.salts(of: input, keyAgreementKey: keyAgreementKey.key)
        let outputs = try await storing { () async throws(StoreError) in
            try await store.hmacSecret(salts, with: stored, userVerified: userVerified)
        }
        guard let outputs else { return nil }
        return try HMACSecret.output(outputs, sharedSecret: sharedSecret)
    }

    /// The profile a stored credential behaves by: this authenticator's when the names agree,
    /// else the built-in profile of that name, else this authenticator's.
    ///
    /// - Parameter stored: a credential of the store.
    /// - Returns: the profile whose counter and verification rules apply to it.
    public func profile(of stored: StoredCredential) -> AuthenticatorProfile {
        stored.profile == profile.name ? profile : AuthenticatorProfile.builtIn[stored.profile] ?? profile
    }

    /// The credential that signs: the candidates, narrowed by ``accountChoice``, newest first.
    ///
    /// A discoverable request chooses among the RP's summaries and opens only the chosen
    /// credential. A credential whose `credProtect` policy refuses the request is passed over
    /// (CTAP 2.1 §6.2.2 step 7, §12.1): level 3 without user verification, level 2 without UV
    /// and without an allow list. When nothing matches, a listing names any file of the store that could not be
    /// read, since that may be the credential the user meant.
    private func chooseCredential(for request: GetAssertionRequest) async throws(AuthenticatorError)
        -> StoredCredential
    {
        var candidates: [CredentialSummary] = []
        var allowed: [[UInt8]: StoredCredential] = [:]
        var problems: [StoreError] = []
        if request.allowList.isEmpty {
            candidates = try await storing { () async throws(StoreError) in
                try await store.summaries(rpID: request.rpID)
            }.filter(\.discoverable)
        } else {
            for id in request.allowList {
                do {
                    if let stored = try await store.credential(id: id), stored.isScoped(to: request.rpID) {
                        allowed[stored.id] = stored
                    }
                } catch {
                    problems.append(error)
                }
            }
            candidates = StoreListing(credentials: Array(allowed.values)).credentials.map(CredentialSummary.init)
        }
        let matching = candidates.filter { accountChoice.admits(id: $0.id, userName: $0.userName) }
        var protected = 0
        for summary in matching {
            var stored = allowed[summary.id]
            if stored == nil {
                stored = try await storing { () async throws(StoreError) in try await store.credential(id: summary.id) }
            }
            guard let stored else {
                continue  // deleted meanwhile
            }
            let policy = stored.credentialProtection ?? .userVerificationOptional
            let userVerified = request.userVerification || profile(of: stored).alwaysVerifiesUser
            guard policy.permits(userVerified: userVerified, allowListed: !request.allowList.isEmpty) else {
                protected += 1
                continue
            }
            return stored
        }
        if request.allowList.isEmpty {
            problems = (try? await store.credentials(rpID: request.rpID).problems) ?? []
        }
        if let problem = problems.first {
            throw AuthenticatorError(
                .other, "no readable credential for \(request.rpID) matches; the store has a problem: \(problem)",
                cause: problem)
        }
        var reason = noMatchReason(request, candidates: candidates.count)
        if protected > 0 {
            reason += "; \(protected) need user verification (credProtect)"
        }
        throw AuthenticatorError(.noCredentials, reason)
    }

    private func noMatchReason(_ request: GetAssertionRequest, candidates: Int) -> String {
        let scope = request.allowList.isEmpty ? "discoverable credential" : "credential of the allow list"
        switch accountChoice {
        case .mostRecent:
            return "no \(scope) for \(request.rpID) on this authenticator"
        case .user(let name):
            return "no \(scope) for \(request.rpID) belongs to user \"\(name)\" (\(candidates) for other users)"
        case .credential(let id):
            return "credential \(Base64URL.encode(id)) is not a \(scope) for \(request.rpID)"
        }
    }
}

extension SoftwareAuthenticator {
    /// An assertion made without suspending (``immediateAssertion(rpID:clientDataHash:allowList:userVerification:)``).
    struct ImmediateAssertion {
        /// The credential that signed.
        let credential: StoredCredential
        /// `authenticatorData ‖ clientDataHash`, as signed; the authenticator data is the first
        /// ``authenticatorDataCount`` bytes.
        let signedBytes: [UInt8]
        /// The signature over ``signedBytes``.
        let signature: [UInt8]
        /// The attachment the client reports: the credential's profile's.
        let attachment: AuthenticatorAttachment

        /// The authenticator data's length here: RP ID hash, flags and counter, nothing attested or
        /// extended (WebAuthn L3 §6.1).
        static let authenticatorDataCount = 37
    }

    /// What ``getAssertion(_:)`` answers for a present user and no extensions, made without
    /// suspending when the store has the candidates and their keys at hand
    /// (``ImmediateCredentialReads``), so a ceremony pays no hop to the store's actor or thread.
    ///
    /// The same choice as CTAP 2.1 §6.2.2 step 7 (``accountChoice``, newest first, `credProtect`),
    /// the same flags, the same signature (reproducible when seeded). `nil` whenever the answer is
    /// not the plain one: no store at hand, a simulated failure, no candidate, a profile that counts
    /// signatures (its counter is a durable write) or cannot verify the user asked for, a key that
    /// fails to sign. ``getAssertion(_:)`` then answers, with its error if there is one.
    func immediateAssertion(
        rpID: String, clientDataHash: [UInt8], allowList: [[UInt8]], userVerification: Bool
    ) -> ImmediateAssertion? {
        guard simulation == nil, clientDataHash.count == SHA256Digest.digestLength,
            let store = immediateReads, let keys = store.sealedKeysNow,
            let candidates = allowList.isEmpty
                ? store.discoverableCredentialsNow(rpID: rpID)
                : store.credentialsNow(ids: allowList).map({ found in
                    StoreListing(credentials: found.filter { $0.isScoped(to: rpID) }).credentials
                })
        else {
            return nil
        }
        for stored in candidates where accountChoice.admits(id: stored.id, userName: stored.userName) {
            let behaviour = profile(of: stored)
            let userVerified = userVerification || behaviour.alwaysVerifiesUser
            let policy = stored.credentialProtection ?? .userVerificationOptional
            guard policy.permits(userVerified: userVerified, allowListed: !allowList.isEmpty) else {
                continue
            }
            guard !behaviour.countsSignatures, !userVerification || behaviour.supportsUserVerification else {
                return nil
            }
            var signed = [UInt8]()
            signed.reserveCapacity(ImmediateAssertion.authenticatorDataCount + clientDataHash.count)
            signed += SHA256Digest.hash(Array(rpID.utf8))
            signed.append(flags(Gesture(userPresent: true, userVerified: userVerified), stored).rawValue)
            signed += [0, 0, 0, 0]  // the counter: this profile keeps none
            signed += clientDataHash
            guard let signature = try? keys.sign(signed, with: stored, reproducibly: seed != nil) else {
                return nil
            }
            return ImmediateAssertion(
                credential: stored, signedBytes: signed, signature: signature, attachment: behaviour.attachment)
        }
        return nil
    }
}

extension SoftwareAuthenticator {
    /// The store as ``ImmediateCredentialReads``, by its class (a cast to the protocol would look
    /// the conformance up on every call).
    fileprivate var immediateReads: (any ImmediateCredentialReads)? {
        if let memory = store as? InMemoryCredentialStore {
            return memory
        }
        return store as? FileCredentialStore
    }
}

extension AccountChoice {
    /// Whether the simulated user would pick the credential with this ID and account name.
    func admits(id: [UInt8], userName: String) -> Bool {
        switch self {
        case .mostRecent: true
        case .user(let name): userName == name
        case .credential(let chosen): id == chosen
        }
    }
}
