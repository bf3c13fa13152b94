public import WebAuthn

extension InMemoryCredentialStore: BatchAttestationStore {
    public func batchAttestation(aaguid: AAGUID) throws(StoreError) -> BatchAttestation {
        try attestationKeys.batch(aaguid, keys)
    }

    public func enterpriseAttestation(aaguid: AAGUID) throws(StoreError) -> BatchAttestation {
        try attestationKeys.batch(aaguid, keys, enterprise: true)
    }

    public func attestationAuthority() throws(StoreError) -> AttestationCertificateAuthority {
        try attestationKeys.authority(keys)
    }

    public func setBatchAttestation(_ attestation: BatchAttestation, aaguid: AAGUID) throws(StoreError) {
        try attestationKeys.set(attestation, aaguid, keys)
    }
}
