import FoundationEssentials
import WebAuthn

/// The attestation keys a software store keeps, as they are written (`attestation.json` of a
/// ``FileCredentialStore``): the CA and the batch attestations by AAGUID, each a chain and its
/// key sealed under the store key (``SealedKeys/seal(attestationKey:certificate:)``).
///
/// ```
/// { "version": 1,
///   "authority": { "certificates": [base64url DER], "sealedKey": base64url },
///   "batches": { "<aaguid>" or "enterprise <aaguid>": { "certificates": [leaf, …, root],
///                                                      "sealedKey": base64url } } }
/// ```
struct AttestationKeys: Codable, Equatable {
    var version = 1
    var authority: SealedChain?
    var batches: [String: SealedChain] = [:]

    /// A certificate chain, leaf first, and the leaf's sealed private key.
    struct SealedChain: Codable, Equatable {
        var certificates: [Base64URL]
        var sealedKey: Base64URL

        init(certificates: [[UInt8]], key: SigningKey, keys: SealedKeys) throws(StoreError) {
            self.certificates = certificates.map(Base64URL.init)
            self.sealedKey = Base64URL(try keys.seal(attestationKey: key, certificate: certificates[0]))
        }

        func open(_ keys: SealedKeys) throws(StoreError) -> (certificates: [[UInt8]], key: SigningKey) {
            let chain = certificates.map(\.bytes)
            guard let leaf = chain.first else {
                throw StoreError(.corrupt, "an attestation chain is empty")
            }
            return (chain, try keys.openAttestationKey(sealedKey.bytes, certificate: leaf))
        }
    }

    /// The CA, made now when there is none.
    mutating func authority(_ keys: SealedKeys) throws(StoreError) -> AttestationCertificateAuthority {
        if let authority {
            let (chain, key) = try authority.open(keys)
            return try Self.checked { () throws(WebAuthnError) in
                try AttestationCertificateAuthority(certificate: chain[0], key: key)
            }
        }
        let made = try Self.checked { () throws(WebAuthnError) in try AttestationCertificateAuthority.generate() }
        authority = try SealedChain(certificates: [made.certificate], key: made.key, keys: keys)
        return made
    }

    /// The batch attestation of `aaguid`, issued now by the CA when there is none; with
    /// `enterprise`, this store's own certificate, whose CN carries a random serial number.
    mutating func batch(_ aaguid: AAGUID, _ keys: SealedKeys, enterprise: Bool = false) throws(StoreError)
        -> BatchAttestation
    {
        let name = enterprise ? "enterprise " + aaguid.description : aaguid.description
        if let batch = batches[name] {
            let (chain, key) = try batch.open(keys)  // the sealing binds the key to the leaf
            return BatchAttestation(checked: chain, key: key)
        }
        let authority = try authority(keys)
        let made = try Self.checked { () throws(WebAuthnError) in
            try authority.issueBatchAttestation(
                aaguid: aaguid,
                commonName: enterprise
                    ? "SoftPasskey Enterprise serial \(Hex.encode(SecureRandom.bytes(8)))"  // CN is at most 64
                    : "SoftPasskey Batch \(aaguid)")
        }
        batches[name] = try SealedChain(certificates: made.certificates, key: made.key, keys: keys)
        return made
    }

    /// Keeps a given batch attestation for `aaguid`, after checking that its leaf, if it names
    /// an AAGUID (`id-fido-gen-ce-aaguid`), names this one (WebAuthn L3 §8.2.1).
    mutating func set(_ attestation: BatchAttestation, _ aaguid: AAGUID, _ keys: SealedKeys) throws(StoreError) {
        let leaf = try Self.checked { () throws(WebAuthnError) in
            try X509Certificate(derEncoded: attestation.certificates[0])
        }
        if leaf.aaguidExtension(naming: aaguid)?.names == false {
            throw StoreError(.invalidCredential, "the attestation certificate names another AAGUID than \(aaguid)")
        }
        batches[aaguid.description] = try SealedChain(
            certificates: attestation.certificates, key: attestation.key, keys: keys)
    }

    /// Runs a WebAuthn step, reporting its failure as a corrupt attestation file.
    private static func checked<T>(_ body: () throws(WebAuthnError) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw StoreError(.corrupt, "attestation keys: \(error.reason)")
        }
    }
}
