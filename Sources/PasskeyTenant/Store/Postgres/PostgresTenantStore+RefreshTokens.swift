import FoundationEssentials
import PostgresNIO

extension PostgresTenantStore {
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
            try await Self.insert(grant, key: .digest(successor), on: connection)
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
        let table = RefreshGrant.table
        guard
            let row = try await connection.rows(
                query(
                    "SELECT \(table.readColumns), rotated FROM refresh_tokens WHERE digest = $1 FOR UPDATE",
                    [
                        .digest(digest)
                    ])
            ).first
        else { return nil }
        let (values, expiry) = try Self.values(table, of: row)
        let grant = try RefreshGrant(storedValues: values, expiresAt: Date(timeIntervalSince1970: expiry))
        if try row.value("rotated", as: Bool.self) {
            try await connection.run("DELETE FROM refresh_tokens WHERE family = \(grant.family)")
            return nil
        }
        guard grant.clientID == clientID, grant.expiresAt > time else { return nil }
        return grant
    }
}
