import BlockingIO
import FoundationEssentials
import Glibc
import WebAuthn

/// **[local]** The outbox file (`tenant serve --outbox-file FILE`): every message the tenant sends
/// (``TenantServices/send(_:)``) appended as one JSON line, in the form `GET /test/outbox` answers
/// (``OutboxEntry``), for a test in another language or process that tails the file:
///
/// ```
/// {"channel":"email","code":"123456","created_at":"2026-11-28T21:00:00Z","id":"msg_…","kind":"passwordless_code",…}
/// ```
///
/// The file is opened once, when the tenant opens (created 0600 when missing, `O_APPEND`), so an
/// unwritable path fails at start, not at the first message. Each line is one `write` on an
/// `O_APPEND` descriptor: lines of several tenants appending to one file do not interleave.
/// Writes block, so they run on a ``BlockingExecutor`` of their own, never on the concurrency
/// pool (STYLE §4).
actor OutboxFile {
    private let executor = BlockingExecutor(label: "OutboxFile")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let file: OpenFile<SystemCallError>

    /// Opens `path` for appending, creating it when missing.
    ///
    /// - Throws: `invalid_configuration` naming the path and the system's reason.
    init(path: String) throws(TenantError) {
        do {
            file = try OpenFile(opening: path, .writeOnly, options: [.create, FileOpenOptions(rawValue: O_APPEND)])
        } catch {
            throw TenantError(.invalidConfiguration, "outbox file: \(error)")
        }
    }

    /// Opens the file on a blocking thread, as the tenant opens.
    ///
    /// - Throws: `invalid_configuration` naming the path and the system's reason.
    static func open(_ path: String) async throws(TenantError) -> OutboxFile {
        try await BlockingExecutor(label: "OutboxFile.open").run { () throws(TenantError) in try OutboxFile(path: path)
        }
    }

    /// Appends `message` as one line.
    ///
    /// - Throws: `server_error` when the write fails (a full disk).
    func append(_ message: OutboxMessage) throws(TenantError) {
        do {
            try file.write(WebAuthnJSON.encode(OutboxEntry(message: message)) + [0x0A], at: 0)
        } catch {
            throw TenantError(.serverError, status: 500, "outbox file: \(error)")
        }
    }
}
