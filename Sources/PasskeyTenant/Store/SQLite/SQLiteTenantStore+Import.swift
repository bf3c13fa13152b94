import GRDB

extension SQLiteTenantStore {
    /// Stores new users and their passkeys in one write transaction, each row through the
    /// statements a signup stores with: one commit for the whole batch, not one per user.
    ///
    /// - Throws: ``ImportedUser/userExists`` when a unique column of `users` (an identifier, the
    ///   user handle) refuses a row; ``ImportedUser/passkeyExists`` when a credential ID is taken.
    func insertUsers(_ users: [TenantUser], credentials: [TenantCredential]) async throws(TenantError) {
        try await write { db in
            for user in users {
                do {
                    try Self.insert(user, in: db)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    throw ImportedUser.userExists
                }
            }
            for credential in credentials {
                do {
                    try Self.insert(credential, in: db)
                } catch let error as TenantError where error.code == .invalidRequest {
                    // The signup's refusal of a taken credential ID; an import answers as the
                    // Management API does.
                    throw ImportedUser.passkeyExists
                }
            }
        }
    }
}
