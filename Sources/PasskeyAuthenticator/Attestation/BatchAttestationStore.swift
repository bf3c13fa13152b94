public import WebAuthn

/// A store that keeps attestation keys besides credentials: its own attestation CA, and one batch
/// attestation per authenticator model, made on first use (WebAuthn L3 §8.2 with `x5c`).
///
/// The software stores conform, keeping the keys sealed under the store key as they keep
/// credential keys; a store over an HSM would keep them in the HSM.
public protocol BatchAttestationStore: CredentialStore {
    /// The batch attestation of authenticator model `aaguid`: the one given with
    /// ``setBatchAttestation(_:aaguid:)``, or else one issued by the store's CA, made (with the CA
    /// when there is none yet) the first time it is asked for and kept.
    ///
    /// - Parameter aaguid: the authenticator model.
    /// - Returns: the batch key and its chain.
    /// - Throws: `StoreError` when the keys cannot be made, read or kept.
    func batchAttestation(aaguid: AAGUID) async throws(StoreError) -> BatchAttestation

    /// The enterprise attestation of this authenticator for model `aaguid` (CTAP 2.1 §7.1,
    /// vendor-facilitated): a certificate issued by the store's CA to this store alone, its
    /// subject naming a serial number made once, so that it identifies the authenticator; made the
    /// first time it is asked for and kept.
    ///
    /// - Parameter aaguid: the authenticator model.
    /// - Returns: the key and its chain.
    /// - Throws: `StoreError` when the keys cannot be made, read or kept.
    func enterpriseAttestation(aaguid: AAGUID) async throws(StoreError) -> BatchAttestation

    /// The store's attestation CA, made the first time it is asked for and kept.
    ///
    /// - Returns: the CA, whose certificate a relying party trusts as the attestation root.
    /// - Throws: `StoreError` when the CA cannot be made, read or kept.
    func attestationAuthority() async throws(StoreError) -> AttestationCertificateAuthority

    /// Uses a given batch attestation (a vendor's certificate and key) for model `aaguid` from now
    /// on, replacing the one the store made.
    ///
    /// - Parameters:
    ///   - attestation: the chain and key.
    ///   - aaguid: the authenticator model.
    /// - Throws: `StoreError` with `invalid-credential` when the leaf names another AAGUID, or
    ///   when it cannot be kept.
    func setBatchAttestation(_ attestation: BatchAttestation, aaguid: AAGUID) async throws(StoreError)
}
