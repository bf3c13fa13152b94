import NIOCore
import PostgresNIO

/// How a PostgreSQL failure reaches the tenant's callers: as a ``TenantError`` whose status says
/// whether to try again (503, `Retry-After: 1`) or not (500), never with a parameter's value.
enum PostgresFailure {
    /// The error a call throws for `error`: `TenantError`s as they are; a unique violation as
    /// `unique` names it for the constraint; a lost or refused connection or a wait past
    /// the timeout as `temporarily_unavailable`; anything else as `server_error`, with
    /// PostgreSQL's SQLSTATE and message (never a parameter's value).
    static func tenantError(for error: any Error, unique: (String) -> TenantError? = { _ in nil }) -> TenantError {
        switch error {
        case let error as TenantError:
            return error
        case is Deadline.Passed, is CancellationError:
            return .databaseUnavailable
        case let error as PSQLError:
            switch error.code {
            case .server:
                let state = error.serverInfo?[.sqlState] ?? ""
                if state == "23505", let refusal = unique(error.serverInfo?[.constraintName] ?? "") {
                    return refusal
                }
                // Class 08 connection exception, 57P0x the server shutting down or starting, 53300
                // too many connections (PostgreSQL Appendix A).
                if state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300" {
                    return .databaseUnavailable
                }
                let message = error.serverInfo?[.message] ?? ""
                return TenantError(.serverError, status: 500, "database: \(state) \(message)")
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown:
                return .databaseUnavailable
            default:
                return TenantError(.serverError, status: 500, "database: \(error.code)")
            }
        case is ChannelError, is IOError:
            return .databaseUnavailable
        default:
            return TenantError(.serverError, status: 500, "database: \(error)")
        }
    }
}
