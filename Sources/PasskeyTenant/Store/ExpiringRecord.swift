import FoundationEssentials

/// A record the store keeps under a key until it expires: one row of one table, the key in its
/// key column, the record in its value columns, and `expires_at` (seconds since 1970).
///
/// Pending sessions, login transactions, login sessions, authorization codes, refresh tokens, the
/// DPoP proofs seen lately and revoked access tokens are all such records. Each store writes the
/// operations once for its dialect (insert, take once, peek, update, delete), not once per kind;
/// the kinds differ only in their ``ExpiringTable`` and how they read and write their values. The
/// table's expired records go in the same transaction as a take (in PostgreSQL at most once a
/// minute, ``SweepSchedule``), and as an insert or a peek that asks for it (the tables nothing
/// else empties: DPoP proofs, login sessions and transactions).
/// The keys are SHA-256 digests of the secrets they stand for (`auth_session`, cookies, codes,
/// refresh tokens), never the secrets.
///
/// The tables are ``TenantSchema``'s as they are: this is a way of reading and writing them, not
/// a schema of its own.
protocol ExpiringRecord: Sendable {
    /// Where the records are kept.
    static var table: ExpiringTable { get }
    /// When the record stops being live: the store forgets it from then on.
    var expiresAt: Date { get }
    /// The values of ``ExpiringTable/columns``, in order.
    var storedValues: [StoredValue] { get }
    /// A record read back.
    ///
    /// - Parameters:
    ///   - values: the values of ``ExpiringTable/columns``, in order.
    ///   - expiresAt: its `expires_at`.
    /// - Throws: `server_error` for values that do not make a record (the database was changed
    ///   behind the tenant's back).
    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError)
}

/// The table of one kind of ``ExpiringRecord``: its name, its key column and its value columns
/// (all but the key and `expires_at`; columns with a default, such as `rotated`, are left out).
struct ExpiringTable: Sendable {
    /// The table's name.
    let name: String
    /// The key column: `digest` (a SHA-256 digest) or `jti`.
    let key: String
    /// The value columns and their types.
    let columns: [(name: String, type: StoredValue.Kind)]

    /// Every column a record is read from: the value columns, then `expires_at`.
    var readColumns: String { (columns.map(\.name) + ["expires_at"]).joined(separator: ", ") }

    /// An insert's conflict clause, the same in both dialects: keep the record stored under the
    /// key, or replace its values with the new record's (an upsert).
    func onConflict(replacing: Bool) -> String {
        guard replacing else { return "ON CONFLICT DO NOTHING" }
        let assignments = (columns.map(\.name) + ["expires_at"]).map { "\($0) = excluded.\($0)" }
        return "ON CONFLICT (\(key)) DO UPDATE SET \(assignments.joined(separator: ", "))"
    }
}

/// One column's value, as both databases store it.
enum StoredValue: Sendable, Hashable {
    /// A column's type, by which PostgreSQL decodes it.
    enum Kind: Sendable {
        case text, real, blob, bool
    }

    case null
    case text(String)
    case real(Double)
    case blob([UInt8])
    case bool(Bool)

    /// A key that is a digest.
    static func digest(_ bytes: [UInt8]) -> StoredValue { .blob(bytes) }

    /// An optional text.
    static func text(_ value: String?) -> StoredValue { value.map { .text($0) } ?? .null }

    /// An instant, as seconds since 1970; NULL for none.
    static func instant(_ value: Date?) -> StoredValue { value.map { .real($0.storedValue) } ?? .null }

    /// The text, or nil for NULL.
    ///
    /// - Throws: `server_error` for another type.
    func optionalText() throws(TenantError) -> String? {
        switch self {
        case .null: return nil
        case .text(let text): return text
        default: throw Self.corrupt
        }
    }

    /// The text.
    ///
    /// - Throws: `server_error` for NULL or another type.
    func text() throws(TenantError) -> String {
        guard let text = try optionalText() else { throw Self.corrupt }
        return text
    }

    /// The instant, or nil for NULL.
    ///
    /// - Throws: `server_error` for another type.
    func optionalInstant() throws(TenantError) -> Date? {
        switch self {
        case .null: return nil
        case .real(let seconds): return Date(timeIntervalSince1970: seconds)
        default: throw Self.corrupt
        }
    }

    /// The instant.
    ///
    /// - Throws: `server_error` for NULL or another type.
    func instant() throws(TenantError) -> Date {
        guard let instant = try optionalInstant() else { throw Self.corrupt }
        return instant
    }

    private static let corrupt = TenantError(.serverError, status: 500, "database: a corrupt expiring record")
}

extension Date {
    /// Seconds since 1970, as the databases store instants.
    var storedValue: Double { timeIntervalSince1970 }
}
