import FoundationEssentials
import PostgresNIO
import WebAuthn

extension PostgresTenantStore {
    /// Records a DPoP proof's `jti` (RFC 9449 §11.1), keyed by the SHA-256 digest of its proof
    /// key's thumbprint and the `jti`, until `until`, with `INSERT … ON CONFLICT DO NOTHING`: of
    /// two instances seeing one proof, one records it. Older records go.
    ///
    /// - Returns: false when the same key used the same `jti` before and the record is still
    ///   kept: the proof is replayed.
    func recordProof(thumbprint: String, jti: String, until: Date, at time: Date) async throws(TenantError) -> Bool {
        let digest = Data(SHA256Digest.hash(Array("\(thumbprint) \(jti)".utf8)))
        return try await withConnection { connection in
            try await connection.run("DELETE FROM dpop_proofs WHERE expires_at <= \(time.storedValue)")
            return try await !connection.rows(
                """
                INSERT INTO dpop_proofs (digest, expires_at) VALUES (\(digest), \(until.storedValue))
                ON CONFLICT DO NOTHING RETURNING 1
                """
            ).isEmpty
        }
    }
}
