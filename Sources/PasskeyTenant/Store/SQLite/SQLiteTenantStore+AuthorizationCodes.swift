import FoundationEssentials
import GRDB
import WebAuthn

extension SQLiteTenantStore {
    /// Stores a new authorization code under the digest of its text, with the identifiers the
    /// tokens of its redemption will carry.
    func insertCode(_ code: AuthorizationCode, digest: [UInt8], issuing identifiers: TokenIdentifiers)
        async throws(TenantError)
    {
        let body = Self.json(code)
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO authorization_codes (digest, body, access_jti, refresh_family, expires_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    Data(digest), body, identifiers.accessTokenID, identifiers.refreshFamily,
                    code.expiresAt.storedValue,
                ])
        }
    }

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
        try await write { db -> CodeRedemption in
            try db.execute(
                sql: "DELETE FROM authorization_codes WHERE expires_at <= ? AND (redeemed = 0 OR expires_at <= ?)",
                arguments: [time.storedValue, time.addingTimeInterval(-86_400).storedValue])
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM authorization_codes WHERE digest = ?", arguments: [Data(digest)])
            else { return .unknown }
            let identifiers = TokenIdentifiers(accessTokenID: row["access_jti"], refreshFamily: row["refresh_family"])
            if row["redeemed"] as Bool {
                try db.execute(
                    sql: "DELETE FROM refresh_tokens WHERE family = ?", arguments: [identifiers.refreshFamily])
                try Self.revoke(jti: identifiers.accessTokenID, until: revokedUntil, at: time, in: db)
                return .replayed
            }
            guard row["expires_at"] as Double > time.storedValue else { return .unknown }
            try db.execute(
                sql: "UPDATE authorization_codes SET redeemed = 1 WHERE digest = ?", arguments: [Data(digest)])
            return .redeemed(
                try Self.decodeJSON(AuthorizationCode.self, row["body"], what: "authorization code"), identifiers)
        }
    }
}
