import FoundationEssentials
import PostgresNIO

/// The statements of a login (`POST /passkey/challenge`, then the webauthn grant at
/// `POST /oauth/token`), prepared: each is parsed and planned once per connection (postgres-nio
/// prepares it on a connection's first use, PostgreSQL §55.2.3 the extended query protocol), and
/// then only bound and executed, instead of parsed, described and planned at every login.
///
/// A statement's name is its table's (``ExpiringTable``) or its own, never built per call; its
/// text is the code's own and its values are bound as `$1`, `$2`, … (never spliced into the text).
enum LoginStatements {
    /// A login statement whose rows are read as they come.
    protocol Statement: PostgresPreparedStatement where Row == PostgresRow {}

    /// `INSERT … ON CONFLICT DO NOTHING RETURNING 1` of a record under a key (a pending session,
    /// a refresh token): a row when it was stored.
    struct Insert<Record: ExpiringRecord>: Statement {
        static var name: String { "insert_\(Record.table.name)" }
        static var sql: String { sql(replacing: false) }

        let record: Record
        let key: StoredValue

        func makeBindings() -> PostgresBindings {
            PostgresTenantStore.bindings(values)
        }

        /// The statement's text; `replacing` writes over the record under the key instead.
        static func sql(replacing: Bool) -> String {
            let table = Record.table
            let placeholders = (1...table.columns.count + 2).map { "$\($0)" }.joined(separator: ", ")
            return """
                INSERT INTO \(table.name) (\(table.key), \(table.readColumns)) VALUES (\(placeholders))
                \(table.onConflict(replacing: replacing)) RETURNING 1
                """
        }

        /// The key, the record's columns and its expiry, as `$1`, `$2`, …
        var values: [StoredValue] { [key] + record.storedValues + [.real(record.expiresAt.storedValue)] }

        func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
    }

    /// `DELETE … RETURNING` of the record under a key: of two callers at any instances, one gets it.
    struct Take<Record: ExpiringRecord>: Statement {
        static var name: String { "take_\(Record.table.name)" }
        static var sql: String {
            "DELETE FROM \(Record.table.name) WHERE \(Record.table.key) = $1 RETURNING \(Record.table.readColumns)"
        }

        let key: StoredValue

        func makeBindings() -> PostgresBindings { PostgresTenantStore.bindings([key]) }

        func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
    }

    /// The credential with an ID, its owner and the owner's failed attempts since a time, in one
    /// row: the credential's columns as they are, the owner's under
    /// ``PostgresTenantStore/ownerPrefix``, and `failures` and `oldest` (0 and NULL for none) of
    /// the owner's attempt key (``AttemptLimiter/Key/storageKey``: the prefix bound as `$3`, then
    /// the ID). The columns are named, not `*`: a column another instance's migration adds does
    /// not change a prepared statement's rows.
    struct LoginCredential: Statement {
        static let name = "login_credential"
        static let sql = """
            SELECT \(PostgresTenantStore.credentialColumns.map { "c.\($0)" }.joined(separator: ", ")),
                \(PostgresTenantStore.userColumns.map { "u.\($0) AS \(PostgresTenantStore.ownerPrefix)\($0)" }
                .joined(separator: ", ")),
                f.failures, f.oldest
            FROM credentials c JOIN users u ON u.id = c.user_id
            CROSS JOIN LATERAL (
                SELECT count(*) AS failures, min(failed_at) AS oldest FROM attempt_failures
                WHERE key = $3 || u.id AND failed_at >= $2) f
            WHERE c.id = $1
            """

        let id: [UInt8]
        let since: Date

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresTenantStore.bindings([.blob(id), .real(since.storedValue)])
            bindings.append(AttemptLimiter.Key.user("").storageKey)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
    }

    /// The compare-and-set of a verified assertion: the counter, BS and the time move only while
    /// the stored counter is the one the assertion was verified against; a row when it applied.
    struct RecordAssertion: Statement {
        static let name = "record_assertion"
        static let sql = "\(assertionSQL) RETURNING 1"

        /// The compare-and-set, its values as `$1` to `$5`.
        static let assertionSQL = """
            UPDATE credentials SET sign_count = $1, backed_up = $2, last_auth_at = $3
            WHERE id = $4 AND sign_count = $5
            """

        let update: AssertionUpdate

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            Self.bind(update, to: &bindings)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) -> PostgresRow { row }

        /// Appends the values of ``assertionSQL``.
        static func bind(_ update: AssertionUpdate, to bindings: inout PostgresBindings) {
            bindings.append(Int64(update.signCount))
            bindings.append(update.backedUp)
            bindings.append(update.time.storedValue)
            bindings.append(ByteBuffer(bytes: update.credentialID))
            bindings.append(Int64(update.previousSignCount))
        }
    }

    /// The webauthn grant's writes in one statement, so in one transaction: the assertion's
    /// compare-and-set (``RecordAssertion``) and, only when it applied, the login's refresh token
    /// (``Insert``'s row); one row, `applied`. A data-modifying `WITH` runs as part of its statement
    /// (PostgreSQL §7.8.4).
    struct RecordAssertionAndRefresh: Statement {
        static let name = "record_assertion_and_refresh"
        static let sql: String = {
            let table = RefreshGrant.table
            // The values, typed: a NULL bound without a type would not be the column's.
            let casts: [(String, String)] =
                [("$6", "bytea")] + table.columns.enumerated().map { ("$\($0 + 7)", $1.type.postgresType) }
                + [("$\(table.columns.count + 7)", "double precision")]
            return """
                WITH assertion AS (\(RecordAssertion.assertionSQL) RETURNING 1),
                    refresh AS (
                        INSERT INTO \(table.name) (\(table.key), \(table.readColumns))
                        SELECT \(casts.map { "\($0)::\($1)" }.joined(separator: ", ")) FROM assertion
                        \(table.onConflict(replacing: false)))
                SELECT EXISTS (SELECT 1 FROM assertion) AS applied
                """
        }()

        let update: AssertionUpdate
        let grant: RefreshGrant
        let key: StoredValue

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 7 + RefreshGrant.table.columns.count)
            RecordAssertion.bind(update, to: &bindings)
            PostgresTenantStore.append([key] + grant.storedValues + [.real(grant.expiresAt.storedValue)], to: &bindings)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
    }

    /// The failures of each of some keys at or after a time (the attempt limiter's check, at every
    /// call of the Authentication API).
    struct Failures: Statement {
        static let name = "attempt_failures"
        static let sql = """
            SELECT key, count(*) AS failures, min(failed_at) AS oldest FROM attempt_failures
            WHERE key = ANY($1) AND failed_at >= $2 GROUP BY key
            """

        let keys: [String]
        let since: Date

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(keys)
            bindings.append(since.storedValue)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
    }
}

extension PostgresConnection {
    /// Runs a prepared login statement (preparing it on this connection's first use) and collects
    /// its rows.
    func rows<S: LoginStatements.Statement>(_ statement: S) async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for try await row in try await execute(statement, logger: PostgresTenantStore.quiet) {
            rows.append(row)
        }
        return rows
    }
}

extension StoredValue.Kind {
    /// The PostgreSQL type of a column of this kind (``TenantSchema``'s).
    var postgresType: String {
        switch self {
        case .text: "text"
        case .real: "double precision"
        case .blob: "bytea"
        case .bool: "boolean"
        }
    }
}
