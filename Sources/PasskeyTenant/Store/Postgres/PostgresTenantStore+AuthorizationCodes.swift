import FoundationEssentials
import PostgresNIO

extension PostgresTenantStore {
    /// Stores a new authorization code under the digest of its text, with the identifiers the
    /// tokens of its redemption will carry.
    func insertCode(_ code: AuthorizationCode, digest: [UInt8], issuing identifiers: TokenIdentifiers)
        async throws(TenantError)
    {
        let body = Self.json(code)
        try await withConnection { connection in
            try await connection.run(
                """
                INSERT INTO authorization_codes (digest, body, access_jti, refresh_family, expires_at)
                VALUES (\(Data(digest)), \(body), \(identifiers.accessTokenID), \(identifiers.refreshFamily),
                    \(code.expiresAt.storedValue))
                """)
        }
    }

    /// Redeems a code once, in one transaction holding the code's row (`SELECT … FOR UPDATE`).
    ///
    /// A code presented after its redemption is a replay, so the grant it made is revoked
    /// (RFC 6749 §4.1.2): its refresh-token family is deleted and its access token's `jti`
    /// recorded as revoked until `revokedUntil`. A redeemed code stays stored for a day after it
    /// expires, so a late replay is still recognised.
    func redeemCode(digest: [UInt8], at time: Date, revokedUntil: Date) async throws(TenantError)
        -> CodeRedemption
    {
        let outcome = try await transaction { connection -> Outcome in
            try await connection.run(
                """
                DELETE FROM authorization_codes WHERE expires_at <= \(time.storedValue)
                    AND (NOT redeemed OR expires_at <= \(time.addingTimeInterval(-86_400).storedValue))
                """)
            guard
                let row = try await connection.rows(
                    "SELECT * FROM authorization_codes WHERE digest = \(Data(digest)) FOR UPDATE"
                ).first
            else { return .unknown }
            let identifiers = TokenIdentifiers(
                accessTokenID: try row.value("access_jti"), refreshFamily: try row.value("refresh_family"))
            if try row.value("redeemed", as: Bool.self) {
                try await connection.run("DELETE FROM refresh_tokens WHERE family = \(identifiers.refreshFamily)")
                try await Self.revoke(jti: identifiers.accessTokenID, until: revokedUntil, at: time, on: connection)
                return .replayed
            }
            guard try row.value("expires_at", as: Double.self) > time.storedValue else { return .unknown }
            try await connection.run("UPDATE authorization_codes SET redeemed = TRUE WHERE digest = \(Data(digest))")
            return .redeemed(try row.value("body", as: String.self), identifiers)
        }
        switch outcome {
        case .unknown: return .unknown
        case .replayed: return .replayed
        case .redeemed(let body, let identifiers):
            return .redeemed(try Self.decodeJSON(AuthorizationCode.self, body, what: "authorization code"), identifiers)
        }
    }

    /// What a redemption found, its body still JSON text.
    private enum Outcome: Sendable {
        case unknown, replayed
        case redeemed(String, TokenIdentifiers)
    }
}
