import FoundationEssentials
import GRDB

extension SQLiteTenantStore {
    /// Redeems a code once, in one transaction.
    ///
    /// A code presented after its redemption is a replay, so the grant it made is revoked
    /// (RFC 6749 §4.1.2: "SHOULD revoke … all tokens previously issued based on that
    /// authorization code"): its refresh-token family is deleted and its access token's `jti`
    /// recorded as revoked until `revokedUntil`. A redeemed code stays stored for a day after it
    /// expires, so a late replay is still recognised.
    func redeemCode(digest: [UInt8], at time: Date, revokedUntil: Date) async throws(TenantError)
        -> CodeRedemption
    {
        let table = IssuedCode.table
        return try await write { db -> CodeRedemption in
            try db.execute(
                sql: "DELETE FROM authorization_codes WHERE expires_at <= ? AND (redeemed = 0 OR expires_at <= ?)",
                arguments: [time.storedValue, time.addingTimeInterval(-86_400).storedValue])
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT \(table.readColumns), redeemed FROM authorization_codes WHERE digest = ?",
                    arguments: [Data(digest)])
            else { return .unknown }
            let issued = try Self.record(IssuedCode.self, from: row)
            if row["redeemed"] as Bool {
                try db.execute(
                    sql: "DELETE FROM refresh_tokens WHERE family = ?", arguments: [issued.identifiers.refreshFamily])
                let jti = StoredValue.text(issued.identifiers.accessTokenID)
                try Self.expire(RevokedToken.table, at: time, in: db)
                try Self.insert(RevokedToken(expiresAt: revokedUntil), key: jti, replacing: true, in: db)
                return .replayed
            }
            guard issued.expiresAt > time else { return .unknown }
            try db.execute(
                sql: "UPDATE authorization_codes SET redeemed = 1 WHERE digest = ?", arguments: [Data(digest)])
            return .redeemed(issued.code, issued.identifiers)
        }
    }
}
