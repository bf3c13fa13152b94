import WebAuthn

extension SoftwareAuthenticator {
    /// Makes a credential as CTAP 2.1 §6.1.2 describes.
    ///
    /// In order: the request is checked; the algorithm is the request's first that the profile
    /// supports (step 3); the user acts (steps 11–14), and only then is an excluded credential
    /// reported (step 10), leaving the store untouched; the key and ID are drawn (or derived from
    /// ``seed``), sealed and stored; a discoverable credential replaces an older discoverable one
    /// for the same RP ID and user handle (step 17); the attestation is `packed` (WebAuthn L3
    /// §8.2), with the store's batch (or enterprise) certificate or as self attestation as the
    /// profile says, when the client did not ask for `none` first, else `none`.
    public func makeCredential(_ request: MakeCredentialRequest) async throws(AuthenticatorError)
        -> MakeCredentialResponse
    {
        try Self.check(clientDataHash: request.clientDataHash)
        guard (1...64).contains(request.user.id.count) else {
            throw AuthenticatorError(.invalidLength, "user.id is 1 to 64 bytes, not \(request.user.id.count)")
        }
        guard !request.rpID.isEmpty else {
            throw AuthenticatorError(.missingParameter, "rp.id is empty")
        }
        guard
            let algorithm = request.algorithms.lazy.compactMap(COSEAlgorithm.init(rawValue:))
                .first(where: profile.algorithms.contains)
        else {
            let offered = request.algorithms.map(String.init).joined(separator: ", ")
            let supported = profile.algorithms.map { String($0.rawValue) }.joined(separator: ", ")
            throw AuthenticatorError(
                .unsupportedAlgorithm, "none of the algorithms offered (\(offered)) is supported (\(supported))")
        }
        if request.residentKey && !profile.supportsResidentKeys {
            throw AuthenticatorError(.unsupportedOption, "this authenticator cannot store discoverable credentials")
        }
        if request.userVerification && !profile.supportsUserVerification {
            throw AuthenticatorError(.unsupportedOption, "this authenticator cannot verify the user")
        }
        let gesture = try gesture(
            presence: request.userPresence, verification: request.userVerification,
            alwaysVerifies: profile.alwaysVerifiesUser)
        for id in request.excludeList {
            if let excluded = try await storing({ () async throws(StoreError) in try await store.credential(id: id) }),
                excluded.isScoped(to: request.rpID)
            {
                throw AuthenticatorError(
                    .credentialExcluded,
                    "credential \(Base64URL.encode(id)) of the exclude list is on this authenticator")
            }
        }
        let discoverable = request.residentKey || (profile.alwaysDiscoverable && profile.supportsResidentKeys)
        let stored = try await newCredential(for: request, algorithm: algorithm, discoverable: discoverable)
        if discoverable {
            try await removeReplaced(by: stored)
        }
        let publicKey = try encodedPublicKey(of: stored)
        let authenticatorData = try makeAuthenticatorData(
            stored, publicKey: publicKey.key, gesture: gesture,
            extensions: try await creationExtensions(request, stored, userVerified: gesture.userVerified))
        let attestationObject: AttestationObject
        let attests = request.attestationFormatsPreference.first != AttestationFormat.none
        var enterprise = false
        if profile.batchAttests, attests {
            enterprise =
                request.enterpriseAttestation != nil && profile.enterpriseAttestationRPIDs.contains(request.rpID)
            let statement = try await batchAttestation(
                authenticatorData, request.clientDataHash, enterprise: enterprise)
            attestationObject = AttestationObject(
                format: .packed, statement: statement.cbor, authenticatorData: authenticatorData)
        } else if profile.selfAttests, attests {
            let signature = try await sign(authenticatorData, request.clientDataHash, with: stored)
            let statement = PackedAttestationStatement(algorithm: algorithm, signature: signature)
            attestationObject = AttestationObject(
                format: .packed, statement: statement.cbor, authenticatorData: authenticatorData)
        } else {
            attestationObject = AttestationObject(
                format: .none, statement: .map([:]), authenticatorData: authenticatorData)
        }
        let largeBlobKey =
            request.largeBlobKey && profile.supports("largeBlobKey") ? try await largeBlobKey(of: stored) : nil
        return MakeCredentialResponse(
            attestationObject: attestationObject, residentKey: discoverable, largeBlobKey: largeBlobKey,
            enterpriseAttestation: enterprise, encodedPublicKey: publicKey)
    }

    /// The new credential's public key, as its attested credential data will carry it, and its
    /// SubjectPublicKeyInfo as stored, for the client (``MakeCredentialResponse/encodedPublicKey``).
    private func encodedPublicKey(of stored: StoredCredential) throws(AuthenticatorError)
        -> MakeCredentialResponse.EncodedPublicKey
    {
        do {
            return MakeCredentialResponse.EncodedPublicKey(key: try stored.publicKey, spki: stored.publicKeySPKI)
        } catch {
            throw AuthenticatorError(.other, "could not encode the new credential: \(error)")
        }
    }

    /// Draws (or derives) the credential ID, has the store make the key and PRF seeds (or take in
    /// the derived ones), and stores the record.
    func newCredential(for request: MakeCredentialRequest, algorithm: COSEAlgorithm, discoverable: Bool)
        async throws(AuthenticatorError) -> StoredCredential
    {
        let material: KeyMaterial?
        do {
            if let given = keyMaterialForTesting {
                material = try given(algorithm)
            } else if let seed {
                let existing = try await storing { () async throws(StoreError) in
                    try await store.summaries(rpID: request.rpID, userHandle: request.user.id).count
                }
                material = try seed.derive(
                    rpID: request.rpID, userID: request.user.id, algorithm: algorithm, index: existing)
            } else {
                material = nil
            }
        } catch let error as AuthenticatorError {
            throw error
        } catch {
            throw AuthenticatorError(.other, "could not derive a key: \(error)")
        }
        var secrets = material?.secrets
        let credentialID: [UInt8]
        if let material {
            credentialID = material.credentialID
        } else if profile.credentialIDFromPublicKey {
            do {
                let drawn = try CredentialSecrets.random(algorithm)
                secrets = drawn
                credentialID = SHA256Digest.hash(drawn.privateKey.publicKey.bytes)
            } catch {
                throw AuthenticatorError(.other, "could not make a key: \(error.reason)")
            }
        } else {
            credentialID = SecureRandom.bytes(16)  // 16 bytes, as platforms use
        }
        let key = try await storing { () async throws(StoreError) in
            try await store.makeKey(
                CredentialKeyRequest(
                    credentialID: credentialID, rpID: request.rpID, algorithm: algorithm, importing: secrets))
        }
        var stored: StoredCredential
        do {
            stored = try StoredCredential(
                id: credentialID, rpID: request.rpID, userHandle: request.user.id, userName: request.user.name,
                userDisplayName: request.user.displayName, key: key, profile: profile.name,
                backupEligible: profile.backupEligible, backupState: profile.backupState, discoverable: discoverable,
                signCount: profile.countsSignatures ? profile.initialSignCount : 0, createdAt: now())
        } catch {
            throw AuthenticatorError(.other, "could not record the new key: \(error)")
        }
        keep(request, in: &stored)
        try await storing { () async throws(StoreError) in try await store.add(stored) }
        return stored
    }

    /// A `packed` statement signed with the store's batch attestation for the profile's AAGUID,
    /// or its enterprise attestation (WebAuthn L3 §8.2 signing procedure, with `x5c`).
    private func batchAttestation(_ authenticatorData: AuthenticatorData, _ clientDataHash: [UInt8], enterprise: Bool)
        async throws(AuthenticatorError) -> PackedAttestationStatement
    {
        guard let attesting = store as? any BatchAttestationStore else {
            throw AuthenticatorError(
                .other, "profile \(profile.name) attests with a batch certificate, and this store keeps none")
        }
        let batch = try await storing { () async throws(StoreError) in
            enterprise
                ? try await attesting.enterpriseAttestation(aaguid: profile.aaguid)
                : try await attesting.batchAttestation(aaguid: profile.aaguid)
        }
        do {
            return try batch.statement(authenticatorData, clientDataHash)
        } catch {
            throw AuthenticatorError(.other, "could not sign the attestation: \(error.reason)")
        }
    }

    /// Deletes the discoverable credentials a new one replaces (CTAP 2.1 §6.1.2 step 17). The new
    /// one is stored first, so a crash in between leaves both rather than neither.
    private func removeReplaced(by new: StoredCredential) async throws(AuthenticatorError) {
        let summaries = try await storing { () async throws(StoreError) in
            try await store.summaries(rpID: new.rpID, userHandle: new.userHandle)
        }
        for old in summaries where old.id != new.id && old.discoverable && old.userHandle == new.userHandle {
            try await storing { () async throws(StoreError) in try await store.delete(id: old.id) }
        }
    }

    /// The authenticator data of a new credential (WebAuthn L3 §6.1, §6.5.1).
    private func makeAuthenticatorData(
        _ stored: StoredCredential, publicKey: COSEKey, gesture: Gesture, extensions: CBOR?
    ) throws(AuthenticatorError) -> AuthenticatorData {
        do {
            let attested = try AttestedCredentialData(
                aaguid: profile.aaguid, credentialID: stored.id, publicKey: publicKey)
            return AuthenticatorData(
                rpIDHash: SHA256Digest.hash(Array(stored.rpID.utf8)), flags: flags(gesture, stored),
                signCount: stored.signCount,
                attestedCredentialData: attested,
                extensions: extensions)
        } catch {
            throw AuthenticatorError(.other, "could not encode the new credential: \(error)")
        }
    }
}
