import WebAuthn

extension SoftwareAuthenticator {
    /// What a new credential keeps of the request's extensions, when the profile supports them:
    /// its `credProtect` policy (CTAP 2.1 §12.1) and its `credBlob` when it fits (§12.2).
    func keep(_ request: MakeCredentialRequest, in stored: inout StoredCredential) {
        if profile.supports("credProtect") {
            stored.credentialProtection = request.credentialProtection
        }
        if profile.supports("credBlob"), let blob = request.credBlob,
            blob.count <= AuthenticatorProfile.maxCredBlobLength
        {
            stored.credBlob = blob
        }
    }

    /// The authenticator extension outputs of a new credential (CTAP 2.1 §12, CTAP 2.2 §12.7), for
    /// the extensions the request asked for and the profile supports; `nil` when there are none.
    ///
    /// - `hmac-secret`: `true`; `hmac-secret-mc`: the salts' outputs, encrypted, under the new
    ///   credential's seed for `userVerified`.
    /// - `credProtect`: the policy's level, when one was asked for.
    /// - `credBlob`: whether the blob was kept (`false` when it is too long).
    /// - `minPinLength`: the profile's PIN length, to the relying parties allowed to see it.
    func creationExtensions(_ request: MakeCredentialRequest, _ stored: StoredCredential, userVerified: Bool)
        async throws(AuthenticatorError) -> CBOR?
    {
        var outputs: [CBOR: CBOR] = [:]
        if request.hmacSecret, profile.supportsHMACSecret {
            outputs["hmac-secret"] = .bool(true)
            if profile.supports("hmac-secret-mc"), let input = request.hmacSecretMC,
                let output = try await hmacSecretOutput(input, stored, userVerified: userVerified)
            {
                outputs["hmac-secret-mc"] = .bytes(output)
            }
        }
        if let policy = stored.credentialProtection {
            outputs["credProtect"] = CBOR(Int(policy.rawValue))
        }
        if profile.supports("credBlob"), request.credBlob != nil {
            outputs["credBlob"] = .bool(stored.credBlob != nil)
        }
        if profile.supports("minPinLength"), request.minPINLength,
            profile.minPINLengthRPIDs?.contains(request.rpID) ?? true
        {
            outputs["minPinLength"] = CBOR(Int(profile.minPINLength))
        }
        return outputs.isEmpty ? nil : .map(outputs)
    }

    /// The authenticator extension outputs of an assertion: `hmac-secret` (CTAP 2.1 §12.5) and
    /// `credBlob` for `getCredBlob` (§12.2: the stored blob, empty when there is none); `nil` when
    /// there are none.
    func assertionExtensions(
        _ request: GetAssertionRequest, _ stored: StoredCredential, behaviour: AuthenticatorProfile, userVerified: Bool
    ) async throws(AuthenticatorError) -> CBOR? {
        var outputs: [CBOR: CBOR] = [:]
        if behaviour.supportsHMACSecret,
            let output = try await hmacSecretOutput(request.hmacSecret, stored, userVerified: userVerified)
        {
            outputs["hmac-secret"] = .bytes(output)
        }
        if request.getCredBlob, behaviour.supports("credBlob") {
            outputs["credBlob"] = .bytes(stored.credBlob ?? [])
        }
        return outputs.isEmpty ? nil : .map(outputs)
    }
}
