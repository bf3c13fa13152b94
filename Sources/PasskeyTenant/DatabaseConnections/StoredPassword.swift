import FoundationEssentials

/// A database connection user's password hash, as `passwords` keeps it: under the user's ID, with
/// no expiry (an `expires_at` in year 9999, so the table's sweeps never reach it). The row goes with
/// its user (`ON DELETE CASCADE`): deleting a user deletes its password.
///
/// A user without a row is a passkey-only user; the password grants answer them as a wrong password.
struct StoredPassword: ExpiringRecord {
    static let table = ExpiringTable(name: "passwords", key: "user_id", columns: [("hash", .text)])

    /// 9999-12-31T23:59:59Z: never, as the table's `expires_at` says it.
    static let never = Date(timeIntervalSince1970: 253_402_300_799)

    var hash: PasswordHash
    var expiresAt: Date { Self.never }

    init(hash: PasswordHash) {
        self.hash = hash
    }

    var storedValues: [StoredValue] { [.text(hash.encoded)] }

    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError) {
        hash = PasswordHash(encoded: try values[0].text())
    }

    /// The key of `userID`'s password.
    static func key(_ userID: String) -> StoredValue { .text(userID) }
}

/// A password-reset ticket (`/dbconnections/change_password`'s link, `/lo/reset?ticket=…`), as
/// `password_tickets` keeps it: the user it resets under the SHA-256 digest of the ticket, until it
/// expires or is used (taken once).
struct PasswordTicket: ExpiringRecord {
    static let table = ExpiringTable(
        name: "password_tickets", key: "digest", columns: [("user_id", .text), ("client_id", .text)])

    var userID: String
    var clientID: String?
    var expiresAt: Date

    init(userID: String, clientID: String?, expiresAt: Date) {
        self.userID = userID
        self.clientID = clientID
        self.expiresAt = expiresAt
    }

    var storedValues: [StoredValue] { [.text(userID), .text(clientID)] }

    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError) {
        self.init(userID: try values[0].text(), clientID: try values[1].optionalText(), expiresAt: expiresAt)
    }
}
