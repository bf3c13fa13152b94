import FoundationEssentials
import PostgresNIO

extension PostgresTenantStore {
    /// Whether the tenant made `userID` a member of `organizationID` at a signup or a login.
    func isMember(userID: String, of organizationID: String) async throws(TenantError) -> Bool {
        try await withConnection { connection in
            try await !connection.rows(
                "SELECT 1 FROM organization_members WHERE organization_id = \(organizationID) AND user_id = \(userID)"
            ).isEmpty
        }
    }

    /// Makes `userID` a member of `organizationID`; a member already stays one.
    func addMember(userID: String, to organizationID: String, at time: Date) async throws(TenantError) {
        try await withConnection { connection in
            try await connection.run(
                """
                INSERT INTO organization_members (organization_id, user_id, created_at)
                VALUES (\(organizationID), \(userID), \(time.storedValue))
                ON CONFLICT DO NOTHING
                """)
        }
    }
}
