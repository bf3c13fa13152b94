import FoundationEssentials
import GRDB
import WebAuthn

extension SQLiteTenantStore {
    /// Records a DPoP proof's `jti` (RFC 9449 §11.1), keyed by the SHA-256 digest of its proof
    /// key's thumbprint and the `jti`, until `until`; older records go.
    ///
    /// - Returns: false when the same key used the same `jti` before and the record is still
    ///   kept: the proof is replayed.
    func recordProof(thumbprint: String, jti: String, until: Date, at time: Date) async throws(TenantError) -> Bool {
        let digest = Data(SHA256Digest.hash(Array("\(thumbprint) \(jti)".utf8)))
        return try await write { db in
            try db.execute(sql: "DELETE FROM dpop_proofs WHERE expires_at <= ?", arguments: [time.storedValue])
            try db.execute(
                sql: "INSERT OR IGNORE INTO dpop_proofs (digest, expires_at) VALUES (?, ?)",
                arguments: [digest, until.storedValue])
            return db.changesCount == 1
        }
    }
}
