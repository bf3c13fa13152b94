import FoundationEssentials
import NIOCore
import PostgresNIO

/// The operations on ``ExpiringRecord``s in PostgreSQL, once for every kind, each guarantee held
/// by the database across instances: a record is taken with `DELETE … RETURNING`, changed under
/// `SELECT … FOR UPDATE` in one transaction, and inserted with `ON CONFLICT DO NOTHING`.
extension PostgresTenantStore {
    @discardableResult
    func insert<Record: ExpiringRecord>(_ record: Record, key: StoredValue, expiring time: Date?)
        async throws(TenantError) -> Bool
    {
        try await withConnection { connection in
            if let time { try await Self.expire(Record.table, at: time, on: connection) }
            return try await Self.insert(record, key: key, on: connection)
        }
    }

    func take<Record: ExpiringRecord>(_ type: Record.Type, key: StoredValue, at time: Date) async throws(TenantError)
        -> Record?
    {
        let table = Record.table
        let sweeping = sweeps.isDue(table.name, at: time)
        let values = try await withConnection { connection -> ([StoredValue], Double)? in
            if sweeping { try await Self.expire(table, at: time, on: connection) }
            guard let row = try await connection.rows(LoginStatements.Take<Record>(key: key)).first else { return nil }
            return try Self.values(table, of: row)
        }
        guard let (values, expiry) = values, expiry > time.storedValue else { return nil }
        return try Record(storedValues: values, expiresAt: Date(timeIntervalSince1970: expiry))
    }

    func peek<Record: ExpiringRecord>(_ type: Record.Type, key: StoredValue, at time: Date, expiring: Bool)
        async throws(TenantError) -> Record?
    {
        let table = Record.table
        let values = try await withConnection { connection in
            if expiring { try await Self.expire(table, at: time, on: connection) }
            return try await Self.live(table, key: key, at: time, lock: false, on: connection)
        }
        guard let (values, expiry) = values else { return nil }
        return try Record(storedValues: values, expiresAt: Date(timeIntervalSince1970: expiry))
    }

    func update<Record: ExpiringRecord>(
        _ type: Record.Type, key: StoredValue, at time: Date, _ change: @escaping @Sendable (inout Record) -> Void
    ) async throws(TenantError) -> Record? {
        let table = Record.table
        return try await transaction { connection -> Record? in
            guard let (values, expiry) = try await Self.live(table, key: key, at: time, lock: true, on: connection)
            else { return nil }
            let record = try Record(storedValues: values, expiresAt: Date(timeIntervalSince1970: expiry))
            var changed = record
            change(&changed)
            let stored = changed.storedValues + [.real(changed.expiresAt.storedValue), key]
            let assignments = (table.columns.map(\.name) + ["expires_at"]).enumerated()
                .map { "\($1) = $\($0 + 1)" }.joined(separator: ", ")
            try await connection.run(
                Self.query(
                    "UPDATE \(table.name) SET \(assignments) WHERE \(table.key) = $\(stored.count)", stored))
            return record
        }
    }

    func delete<Record: ExpiringRecord>(_ type: Record.Type, key: StoredValue) async throws(TenantError) {
        let table = Record.table
        try await withConnection { connection in
            try await connection.run(Self.query("DELETE FROM \(table.name) WHERE \(table.key) = $1", [key]))
        }
    }

    // MARK: On a connection

    /// Inserts `record` under `key` unless the key is taken, or over the record there when
    /// `replacing`; whether it was stored.
    @discardableResult
    static func insert<Record: ExpiringRecord>(
        _ record: Record, key: StoredValue, replacing: Bool = false, on connection: PostgresConnection
    ) async throws -> Bool {
        let insert = LoginStatements.Insert(record: record, key: key)
        // Replacing is off the login path (a revoked token, on a reused authorization code): not prepared.
        guard replacing else { return try await !connection.rows(insert).isEmpty }
        return try await !connection.rows(query(type(of: insert).sql(replacing: true), insert.values)).isEmpty
    }

    /// Deletes the records of `table` that expired at or before `time`.
    static func expire(_ table: ExpiringTable, at time: Date, on connection: PostgresConnection) async throws {
        try await connection.run(query("DELETE FROM \(table.name) WHERE expires_at <= $1", [.real(time.storedValue)]))
    }

    /// The values and expiry of the live record under `key`, its row locked until the transaction
    /// ends when `lock` is set.
    private static func live(
        _ table: ExpiringTable, key: StoredValue, at time: Date, lock: Bool, on connection: PostgresConnection
    ) async throws -> ([StoredValue], Double)? {
        let sql =
            "SELECT \(table.readColumns) FROM \(table.name) WHERE \(table.key) = $1 AND expires_at > $2"
            + (lock ? " FOR UPDATE" : "")
        guard let row = try await connection.rows(query(sql, [key, .real(time.storedValue)])).first else {
            return nil
        }
        return try values(table, of: row)
    }

    /// The value columns of a row of ``ExpiringTable/readColumns``, and its `expires_at`.
    static func values(_ table: ExpiringTable, of row: PostgresRow) throws -> ([StoredValue], Double) {
        let columns = row.makeRandomAccess()
        let values = try table.columns.map { column throws -> StoredValue in
            let cell = columns[column.name]
            switch column.type {
            case .text: return .text(try cell.decode(String?.self))
            case .real: return try cell.decode(Double?.self).map(StoredValue.real) ?? .null
            case .bool: return try cell.decode(Bool?.self).map(StoredValue.bool) ?? .null
            case .blob: return try cell.decode(ByteBuffer?.self).map { .blob(Array($0.readableBytesView)) } ?? .null
            }
        }
        return (values, try columns["expires_at"].decode(Double.self))
    }

    /// A statement whose table and column names are the code's own (``ExpiringTable``) and whose
    /// values are bound as `$1`, `$2`, … (never spliced into the text).
    static func query(_ sql: String, _ values: [StoredValue]) -> PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: bindings(values))
    }

    /// `values` bound in order, as `$1`, `$2`, …
    static func bindings(_ values: [StoredValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        append(values, to: &bindings)
        return bindings
    }

    /// Appends `values` to `bindings`, in order.
    static func append(_ values: [StoredValue], to bindings: inout PostgresBindings) {
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .text(let text): bindings.append(text)
            case .real(let number): bindings.append(number)
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            case .bool(let flag): bindings.append(flag)
            }
        }
    }
}
