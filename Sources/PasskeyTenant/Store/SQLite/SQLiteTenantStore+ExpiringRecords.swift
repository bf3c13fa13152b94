import FoundationEssentials
import GRDB

/// The operations on ``ExpiringRecord``s in SQLite, once for every kind: each a statement or a
/// write transaction (SQLite serialises writers, so a read-then-write in one holds the table).
extension SQLiteTenantStore {
    @discardableResult
    func insert<Record: ExpiringRecord>(_ record: Record, key: StoredValue, expiring time: Date?)
        async throws(TenantError) -> Bool
    {
        try await write { db in
            if let time { try Self.expire(Record.table, at: time, in: db) }
            return try Self.insert(record, key: key, in: db)
        }
    }

    func take<Record: ExpiringRecord>(_ type: Record.Type, key: StoredValue, at time: Date) async throws(TenantError)
        -> Record?
    {
        let table = Record.table
        return try await write { db -> Record? in
            try Self.expire(table, at: time, in: db)
            return try Row.fetchOne(
                db, sql: "DELETE FROM \(table.name) WHERE \(table.key) = ? RETURNING \(table.readColumns)",
                arguments: [key.databaseValue]
            ).map { try Self.record(Record.self, from: $0) }
        }
    }

    func peek<Record: ExpiringRecord>(_ type: Record.Type, key: StoredValue, at time: Date, expiring: Bool)
        async throws(TenantError) -> Record?
    {
        let table = Record.table
        let live: @Sendable (Database) throws -> Record? = { db in
            try Self.live(table, key: key, at: time, in: db).map { try Self.record(Record.self, from: $0) }
        }
        guard expiring else { return try await read(live) }
        return try await write { db in
            try Self.expire(table, at: time, in: db)
            return try live(db)
        }
    }

    func update<Record: ExpiringRecord>(
        _ type: Record.Type, key: StoredValue, at time: Date, _ change: @escaping @Sendable (inout Record) -> Void
    ) async throws(TenantError) -> Record? {
        let table = Record.table
        return try await write { db -> Record? in
            guard let row = try Self.live(table, key: key, at: time, in: db) else { return nil }
            let record = try Self.record(Record.self, from: row)
            var changed = record
            change(&changed)
            let assignments = (table.columns.map { "\($0.name) = ?" } + ["expires_at = ?"]).joined(separator: ", ")
            try db.execute(
                sql: "UPDATE \(table.name) SET \(assignments) WHERE \(table.key) = ?",
                arguments: StatementArguments(
                    (changed.storedValues + [.real(changed.expiresAt.storedValue), key]).map(\.databaseValue)))
            return record
        }
    }

    func delete<Record: ExpiringRecord>(_ type: Record.Type, key: StoredValue) async throws(TenantError) {
        let table = Record.table
        try await write { db in
            try db.execute(sql: "DELETE FROM \(table.name) WHERE \(table.key) = ?", arguments: [key.databaseValue])
        }
    }

    // MARK: Within a transaction

    /// Inserts `record` under `key` unless the key is taken, or over the record there when
    /// `replacing`; whether it was stored.
    @discardableResult
    static func insert<Record: ExpiringRecord>(
        _ record: Record, key: StoredValue, replacing: Bool = false, in db: Database
    ) throws -> Bool {
        let table = Record.table
        let values = [key] + record.storedValues + [.real(record.expiresAt.storedValue)]
        try db.execute(
            sql: """
                INSERT INTO \(table.name) (\(table.key), \(table.readColumns))
                VALUES (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))
                \(table.onConflict(replacing: replacing))
                """,
            arguments: StatementArguments(values.map(\.databaseValue)))
        return db.changesCount == 1
    }

    /// Deletes the records of `table` that expired at or before `time`.
    static func expire(_ table: ExpiringTable, at time: Date, in db: Database) throws {
        try db.execute(sql: "DELETE FROM \(table.name) WHERE expires_at <= ?", arguments: [time.storedValue])
    }

    /// The row of the live record under `key`, its value columns then `expires_at`.
    private static func live(_ table: ExpiringTable, key: StoredValue, at time: Date, in db: Database) throws -> Row? {
        try Row.fetchOne(
            db,
            sql: "SELECT \(table.readColumns) FROM \(table.name) WHERE \(table.key) = ? AND expires_at > ?",
            arguments: [key.databaseValue, time.storedValue])
    }

    /// The record a row of ``ExpiringTable/readColumns`` holds.
    static func record<Record: ExpiringRecord>(_ type: Record.Type, from row: Row) throws(TenantError) -> Record {
        let values = Record.table.columns.enumerated().map { index, column in
            StoredValue(row[index] as DatabaseValue, as: column.type)
        }
        guard case .real(let expiry) = StoredValue(row[values.count] as DatabaseValue, as: .real) else {
            throw TenantError(.serverError, status: 500, "database: a corrupt \(Record.table.name) row")
        }
        return try Record(storedValues: values, expiresAt: Date(timeIntervalSince1970: expiry))
    }
}

extension StoredValue {
    /// The value as GRDB binds it.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .text(let text): text.databaseValue
        case .real(let number): number.databaseValue
        case .blob(let bytes): Data(bytes).databaseValue
        case .bool(let flag): flag.databaseValue
        }
    }

    /// A value SQLite returned for a column of `kind` (SQLite keeps booleans and whole reals as
    /// integers).
    init(_ value: DatabaseValue, as kind: Kind) {
        switch (value.storage, kind) {
        case (.null, _): self = .null
        case (.int64(let number), .bool): self = .bool(number != 0)
        case (.int64(let number), _): self = .real(Double(number))
        case (.double(let number), _): self = .real(number)
        case (.string(let text), _): self = .text(text)
        case (.blob(let data), _): self = .blob(Array(data))
        }
    }
}
