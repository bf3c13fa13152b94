import WebAuthn

extension SoftwareAuthenticator {
    /// Whether this authenticator speaks U2F: its profile signs with ES256, the one algorithm of
    /// U2F (FIDO U2F Raw Message Formats v1.2 §4.3).
    var supportsU2F: Bool { profile.algorithms.contains(.es256) }

    /// Makes a U2F credential (FIDO U2F Raw Message Formats v1.2 §4) through the store, as
    /// ``makeCredential(_:)`` makes a CTAP2 one: the profile's P-256 key, sealed, a non-discoverable
    /// record under the RP ID ``StoredCredential/u2fRPID(application:)``, the profile's counter.
    ///
    /// The attestation is the profile's batch certificate from the store
    /// (``BatchAttestationStore``) when the profile batch-attests; otherwise, as U2F has no `none`
    /// and no self attestation, a certificate made for this registration alone
    /// (`BatchAttestation.anonymousU2F`), which identifies nothing.
    public func registerU2F(application: [UInt8], challenge: [UInt8]) async throws(AuthenticatorError)
        -> U2FRegistration
    {
        try Self.check(u2fParameters: application, challenge)
        guard supportsU2F else {
            throw AuthenticatorError(.unsupportedOption, "profile \(profile.name) has no ES256 key, so no U2F")
        }
        _ = try gesture(presence: true, verification: false, alwaysVerifies: false)
        let request = MakeCredentialRequest(
            clientDataHash: challenge, rpID: StoredCredential.u2fRPID(application: application),
            user: .init(id: [], name: "", displayName: ""), algorithms: [COSEAlgorithm.es256.rawValue],
            residentKey: false, userVerification: false)
        let stored = try await newCredential(for: request, algorithm: .es256, discoverable: false)
        guard stored.id.count <= Int(UInt8.max), let publicKey = try? stored.publicKey,
            case .ec2(.p256, let x, let y) = publicKey.parameters
        else {
            try? await store.delete(id: stored.id)
            throw AuthenticatorError(.other, "the new credential has no U2F key handle or P-256 key")
        }
        let point: [UInt8] = [0x04] + x + y
        let signed: [UInt8] = [0x00] + application + challenge + stored.id + point
        let attestation = try await u2fAttestation()
        do {
            let signature = try attestation.key.signature(for: signed)
            return U2FRegistration(
                publicKey: point, keyHandle: stored.id, certificate: attestation.certificates[0], signature: signature)
        } catch {
            throw AuthenticatorError(.other, "could not sign the U2F attestation: \(error.reason)")
        }
    }

    /// Signs with a U2F credential (FIDO U2F Raw Message Formats v1.2 §5.4): the authenticator data
    /// of CTAP2 (the application parameter as RP ID hash, UP alone, the counter) and the challenge
    /// as client data hash, so the counter advances durably before the signature exists as it
    /// does for ``getAssertion(_:)``.
    public func authenticateU2F(application: [UInt8], challenge: [UInt8], keyHandle: [UInt8], userPresent: Bool)
        async throws(AuthenticatorError) -> U2FAuthentication
    {
        try Self.check(u2fParameters: application, challenge)
        guard let stored = try await u2fCredential(keyHandle: keyHandle, application: application) else {
            throw AuthenticatorError(.noCredentials, "the key handle is not one of this authenticator's for it")
        }
        _ = try gesture(presence: userPresent, verification: false, alwaysVerifies: false)
        let counter =
            profile(of: stored).countsSignatures
            ? try await storing { () async throws(StoreError) in try await store.incrementCounter(id: stored.id) }
            : 0
        let flags: AuthenticatorFlags = userPresent ? .userPresent : []
        let authenticatorData = AuthenticatorData(rpIDHash: application, flags: flags, signCount: counter)
        return U2FAuthentication(
            userPresence: flags.rawValue, counter: counter,
            signature: try await sign(authenticatorData, challenge, with: stored))
    }

    /// Whether the key handle is a U2F credential of this store for the application parameter.
    public func hasU2FCredential(keyHandle: [UInt8], application: [UInt8]) async throws(AuthenticatorError) -> Bool {
        try await u2fCredential(keyHandle: keyHandle, application: application) != nil
    }

    /// The U2F credential with this key handle for this application parameter, if any.
    private func u2fCredential(keyHandle: [UInt8], application: [UInt8]) async throws(AuthenticatorError)
        -> StoredCredential?
    {
        let stored = try await storing { () async throws(StoreError) in try await store.credential(id: keyHandle) }
        guard let stored, stored.u2fApplication == application, stored.algorithm == .es256 else {
            return nil
        }
        return stored
    }

    /// The key and certificate that sign a U2F registration.
    private func u2fAttestation() async throws(AuthenticatorError) -> BatchAttestation {
        if profile.batchAttests, let attesting = store as? any BatchAttestationStore {
            let batch = try await storing { () async throws(StoreError) in
                try await attesting.batchAttestation(aaguid: profile.aaguid)
            }
            if batch.key.algorithm == .es256 {
                return batch
            }
        }
        do {
            return try BatchAttestation.anonymousU2F(now: now())
        } catch {
            throw AuthenticatorError(.other, "could not make a U2F attestation certificate: \(error.reason)")
        }
    }

    /// Checks that the application and challenge parameters are 32 bytes each (§4.1, §5.1).
    private static func check(u2fParameters application: [UInt8], _ challenge: [UInt8]) throws(AuthenticatorError) {
        guard application.count == SHA256Digest.digestLength, challenge.count == SHA256Digest.digestLength else {
            throw AuthenticatorError(.invalidLength, "U2F's application and challenge parameters are 32 bytes each")
        }
    }
}
