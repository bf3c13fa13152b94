import FoundationEssentials
import GRDB

extension SQLiteTenantStore {
    /// Uses a refresh token once: marks it rotated and stores its successor of the same family,
    /// in one transaction.
    ///
    /// A token that was rotated already is being replayed (stolen, or a client that lost the
    /// answer): the whole family is deleted, so neither copy works any more.
    ///
    /// - Returns: the grant, or nil when the token is unknown, expired, rotated or for another
    ///   client.
    func rotateRefreshToken(
        digest: [UInt8], clientID: String, successor: [UInt8], expiresAt: Date, at time: Date
    ) async throws(TenantError) -> RefreshGrant? {
        try await write { db -> RefreshGrant? in
            guard var grant = try Self.liveGrant(digest: digest, clientID: clientID, at: time, in: db) else {
                return nil
            }
            try db.execute(sql: "UPDATE refresh_tokens SET rotated = 1 WHERE digest = ?", arguments: [Data(digest)])
            grant.expiresAt = expiresAt
            try Self.insert(grant, key: .digest(successor), in: db)
            return grant
        }
    }

    /// Revokes a refresh token and every token rotated from the same login (RFC 7009 §2.1).
    ///
    /// - Returns: whether the token was known for this client.
    @discardableResult
    func revokeRefreshToken(digest: [UInt8], clientID: String) async throws(TenantError) -> Bool {
        try await write { db in
            guard
                let family = try String.fetchOne(
                    db, sql: "SELECT family FROM refresh_tokens WHERE digest = ? AND client_id = ?",
                    arguments: [Data(digest), clientID])
            else { return false }
            try db.execute(sql: "DELETE FROM refresh_tokens WHERE family = ?", arguments: [family])
            return true
        }
    }

    /// The grant of a live refresh token of `clientID`: known, not expired, not rotated.
    ///
    /// A rotated token presented again is a replay: the whole family is deleted.
    func refreshGrant(digest: [UInt8], clientID: String, at time: Date) async throws(TenantError) -> RefreshGrant? {
        try await write { db in try Self.liveGrant(digest: digest, clientID: clientID, at: time, in: db) }
    }

    private static func liveGrant(
        digest: [UInt8], clientID: String, at time: Date, in db: Database
    ) throws -> RefreshGrant? {
        let table = RefreshGrant.table
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT \(table.readColumns), rotated FROM refresh_tokens WHERE digest = ?",
                arguments: [Data(digest)])
        else { return nil }
        let grant = try record(RefreshGrant.self, from: row)
        if row["rotated"] as Bool {
            try db.execute(sql: "DELETE FROM refresh_tokens WHERE family = ?", arguments: [grant.family])
            return nil
        }
        guard grant.clientID == clientID, grant.expiresAt > time else { return nil }
        return grant
    }
}
