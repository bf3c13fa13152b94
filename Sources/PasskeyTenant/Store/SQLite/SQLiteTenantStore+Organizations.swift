import FoundationEssentials
import GRDB

extension SQLiteTenantStore {
    /// Whether the tenant made `userID` a member of `organizationID` at a signup or a login.
    func isMember(userID: String, of organizationID: String) async throws(TenantError) -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM organization_members WHERE organization_id = ? AND user_id = ?",
                arguments: [organizationID, userID]) == true
        }
    }

    /// Makes `userID` a member of `organizationID`; a member already stays one.
    func addMember(userID: String, to organizationID: String, at time: Date) async throws(TenantError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO organization_members (organization_id, user_id, created_at)
                    VALUES (?, ?, ?)
                    """,
                arguments: [organizationID, userID, time.storedValue])
        }
    }
}
