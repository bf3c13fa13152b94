import FoundationEssentials
import PostgresNIO

extension PostgresTenantStore {
    /// Redeems a code once, in one transaction holding the code's row (`SELECT … FOR UPDATE`).
    ///
    /// A code presented after its redemption is a replay, so the grant it made is revoked
    /// (RFC 6749 §4.1.2): its refresh-token family is deleted and its access token's `jti`
    /// recorded as revoked until `revokedUntil`. A redeemed code stays stored for a day after it
    /// expires, so a late replay is still recognised.
    func redeemCode(digest: [UInt8], at time: Date, revokedUntil: Date) async throws(TenantError)
        -> CodeRedemption
    {
        let table = IssuedCode.table
        return try await transaction { connection -> CodeRedemption in
            try await connection.run(
                """
                DELETE FROM authorization_codes WHERE expires_at <= \(time.storedValue)
                    AND (NOT redeemed OR expires_at <= \(time.addingTimeInterval(-86_400).storedValue))
                """)
            guard
                let row = try await connection.rows(
                    Self.query(
                        "SELECT \(table.readColumns), redeemed FROM authorization_codes WHERE digest = $1 FOR UPDATE",
                        [.digest(digest)])
                ).first
            else { return .unknown }
            let (values, expiry) = try Self.values(table, of: row)
            let issued = try IssuedCode(storedValues: values, expiresAt: Date(timeIntervalSince1970: expiry))
            if try row.value("redeemed", as: Bool.self) {
                try await connection.run(
                    "DELETE FROM refresh_tokens WHERE family = \(issued.identifiers.refreshFamily)")
                let jti = issued.identifiers.accessTokenID
                try await Self.expire(RevokedToken.table, at: time, on: connection)
                try await Self.insert(
                    RevokedToken(expiresAt: revokedUntil), key: .text(jti), replacing: true, on: connection)
                return .replayed
            }
            guard issued.expiresAt > time else { return .unknown }
            try await connection.run("UPDATE authorization_codes SET redeemed = TRUE WHERE digest = \(Data(digest))")
            return .redeemed(issued.code, issued.identifiers)
        }
    }
}
