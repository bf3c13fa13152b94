import BlockingIO
import FoundationEssentials
public import WebAuthn

extension FileCredentialStore: BatchAttestationStore {
    /// The file of the attestation keys (``AttestationKeys``), 0600 beside `store.json`.
    static let attestationFileName = "attestation.json"

    public func batchAttestation(aaguid: AAGUID) throws(StoreError) -> BatchAttestation {
        try changingAttestationKeys { (keys: inout AttestationKeys) throws(StoreError) in
            try keys.batch(aaguid, self.keys)
        }
    }

    public func enterpriseAttestation(aaguid: AAGUID) throws(StoreError) -> BatchAttestation {
        try changingAttestationKeys { (keys: inout AttestationKeys) throws(StoreError) in
            try keys.batch(aaguid, self.keys, enterprise: true)
        }
    }

    public func attestationAuthority() throws(StoreError) -> AttestationCertificateAuthority {
        try changingAttestationKeys { (keys: inout AttestationKeys) throws(StoreError) in try keys.authority(self.keys)
        }
    }

    public func setBatchAttestation(_ attestation: BatchAttestation, aaguid: AAGUID) throws(StoreError) {
        try changingAttestationKeys { (keys: inout AttestationKeys) throws(StoreError) in
            try keys.set(attestation, aaguid, self.keys)
        }
    }

    /// Reads `attestation.json` under the exclusive lock, lets `body` change it and writes it
    /// back, durably and atomically, when it did.
    private func changingAttestationKeys<T>(_ body: (inout AttestationKeys) throws(StoreError) -> T)
        throws(StoreError) -> T
    {
        let path = directory + "/" + Self.attestationFileName
        try files.lock.lock(exclusive: true, timeout: lockTimeout)
        defer { files.lock.unlock() }
        var attestationKeys = AttestationKeys()
        if let file = try StoreFile(openingIfExists: Self.attestationFileName, in: files.root) {
            let data = Data(try file.readAll(limit: Files.fileSizeLimit))
            do {
                attestationKeys = try JSONDecoder().decode(AttestationKeys.self, from: data)
            } catch {
                throw StoreError(.corrupt, "not an attestation file: \(Self.describe(error))", file: path)
            }
            guard attestationKeys.version == 1 else {
                throw StoreError(
                    .unsupportedVersion, "attestation file version \(attestationKeys.version); this library reads 1",
                    file: path)
            }
        }
        let before = attestationKeys
        let result: T
        do {
            result = try body(&attestationKeys)
        } catch {
            throw StoreError(error.code, error.reason, file: error.file ?? path)
        }
        if attestationKeys != before {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let bytes: [UInt8]
            do {
                bytes = Array(try encoder.encode(attestationKeys))
            } catch {
                throw StoreError(.io, "cannot encode the attestation keys: \(error)", file: path)
            }
            try files.root.replace(Self.attestationFileName, with: bytes)
        }
        return result
    }
}
