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
        let gesture = try gesture(
            presence: request.userPresence, verification: request.userVerification,
            alwaysVerifies: behaviour.alwaysVerifiesUser)
        var flags = flags(gesture).subtracting([.backupEligible, .backupState])
        if stored.backupEligible { flags.insert(.backupEligible) }
        if stored.backupState { flags.insert(.backupState) }
        let key = try privateKey(of: stored)
        let signCount =
            behaviour.countsSignatures
            ? try await storing { () async throws(StoreError) in try await store.incrementCounter(id: stored.id) }
            : 0
        let authenticatorData = AuthenticatorData(
            rpIDHash: SHA256.hash(Array(request.rpID.utf8)), flags: flags, signCount: signCount)
        return GetAssertionResponse(
            credentialID: stored.id, authenticatorData: authenticatorData,
            signature: try sign(authenticatorData, request.clientDataHash, with: key), userHandle: stored.userHandle)
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
    private func chooseCredential(for request: GetAssertionRequest) async throws(AuthenticatorError)
        -> StoredCredential
    {
        var candidates: [StoredCredential] = []
        var problems: [StoreError] = []
        if request.allowList.isEmpty {
            let listing = try await storing { () async throws(StoreError) in
                try await store.credentials(rpID: request.rpID)
            }
            candidates = listing.credentials.filter(\.discoverable)
            problems = listing.problems
        } else {
            for id in request.allowList {
                do {
                    if let stored = try await store.credential(id: id), stored.rpID == request.rpID {
                        candidates.append(stored)
                    }
                } catch {
                    problems.append(error)
                }
            }
            candidates = StoreListing(credentials: candidates).credentials
        }
        let chosen: StoredCredential?
        switch accountChoice {
        case .mostRecent:
            chosen = candidates.first
        case .user(let name):
            chosen = candidates.first { $0.userName == name }
        case .credential(let id):
            chosen = candidates.first { $0.id == id }
        }
        guard let chosen else {
            if let problem = problems.first {
                throw AuthenticatorError(
                    .other, "no readable credential for \(request.rpID) matches; the store has a problem: \(problem)",
                    cause: problem)
            }
            throw AuthenticatorError(.noCredentials, noMatchReason(request, candidates: candidates.count))
        }
        return chosen
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
