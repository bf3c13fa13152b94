import FoundationEssentials
import PostgresNIO

extension PostgresTenantStore {
    /// Stores a refresh grant under the digest of its token.
    func insertRefreshToken(_ grant: RefreshGrant, digest: [UInt8]) async throws(TenantError) {
        try await withConnection { connection in try await Self.insert(grant, digest: digest, on: connection) }
    }

    private static func insert(_ grant: RefreshGrant, digest: [UInt8], on connection: PostgresConnection) async throws {
        try await connection.run(
            """
            INSERT INTO refresh_tokens (digest, family, user_id, client_id, scope, audience, organization, expires_at,
                auth_time, dpop_jkt)
            VALUES (\(Data(digest)), \(grant.family), \(grant.userID), \(grant.clientID),
                \(grant.scope.joined(separator: " ")), \(grant.audience), \(grant.organization),
                \(grant.expiresAt.storedValue), \(grant.authTime?.storedValue), \(grant.dpopJKT))
            """)
    }

    /// Uses a refresh token once: marks it rotated and stores its successor of the same family,
    /// in one transaction holding the token's row (`SELECT … FOR UPDATE`), so of two instances
    /// rotating one token at once, the second sees it rotated.
    ///
    /// A token that was rotated already is being replayed (stolen, or a client that lost the
    /// answer): the whole family is deleted, so neither copy works any more.
    ///
    /// - Returns: the grant, or nil when the token is unknown, expired, rotated or for another
    ///   client.
    func rotateRefreshToken(
        digest: [UInt8], clientID: String, successor: [UInt8], expiresAt: Date, at time: Date
    ) async throws(TenantError) -> RefreshGrant? {
        try await transaction { connection -> RefreshGrant? in
            guard var grant = try await Self.liveGrant(digest: digest, clientID: clientID, at: time, on: connection)
            else { return nil }
            try await connection.run("UPDATE refresh_tokens SET rotated = TRUE WHERE digest = \(Data(digest))")
            grant.expiresAt = expiresAt
            try await Self.insert(grant, digest: successor, on: connection)
            return grant
        }
    }

    /// Revokes a refresh token and every token rotated from the same login (RFC 7009 §2.1).
    ///
    /// - Returns: whether the token was known for this client.
    @discardableResult
    func revokeRefreshToken(digest: [UInt8], clientID: String) async throws(TenantError) -> Bool {
        try await transaction { connection in
            guard
                let row = try await connection.rows(
                    "SELECT family FROM refresh_tokens WHERE digest = \(Data(digest)) AND client_id = \(clientID)"
                ).first
            else { return false }
            let family = try row.value("family", as: String.self)
            try await connection.run("DELETE FROM refresh_tokens WHERE family = \(family)")
            return true
        }
    }

    /// The grant of a live refresh token of `clientID`: known, not expired, not rotated.
    ///
    /// A rotated token presented again is a replay: the whole family is deleted.
    func refreshGrant(digest: [UInt8], clientID: String, at time: Date) async throws(TenantError) -> RefreshGrant? {
        try await transaction { connection in
            try await Self.liveGrant(digest: digest, clientID: clientID, at: time, on: connection)
        }
    }

    /// The live grant under `digest`, its row locked until the transaction ends; a rotated
    /// token's family is deleted.
    private static func liveGrant(
        digest: [UInt8], clientID: String, at time: Date, on connection: PostgresConnection
    ) async throws -> RefreshGrant? {
        guard
            let row = try await connection.rows(
                "SELECT * FROM refresh_tokens WHERE digest = \(Data(digest)) FOR UPDATE"
            ).first
        else { return nil }
        let family = try row.value("family", as: String.self)
        if try row.value("rotated", as: Bool.self) {
            try await connection.run("DELETE FROM refresh_tokens WHERE family = \(family)")
            return nil
        }
        let expiry = try row.value("expires_at", as: Double.self)
        guard try row.value("client_id", as: String.self) == clientID, expiry > time.storedValue else { return nil }
        let scope = try row.value("scope", as: String.self)
        return RefreshGrant(
            userID: try row.value("user_id"), clientID: clientID, scope: scope.split(separator: " ").map(String.init),
            audience: try row.value("audience"), organization: try row.value("organization"), family: family,
            expiresAt: Date(timeIntervalSince1970: expiry),
            authTime: try row.value("auth_time", as: Double?.self).map(Date.init(timeIntervalSince1970:)),
            dpopJKT: try row.value("dpop_jkt"))
    }
}
