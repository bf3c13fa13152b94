import FoundationEssentials
import WebAuthn

/// Where a PostgreSQL database is, as the tenant's `database` string names it:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME` (or `postgresql://…`), or a Unix socket as
/// `postgres://USER@/DBNAME?host=/socket/dir`, libpq's form (libpq §34.1.1, "Connection URIs").
///
/// The port is 5432 unless `:PORT` or `?port=` says otherwise; over a socket it names the socket
/// file `DIR/.s.PGSQL.PORT`. User, password and database name may be percent-encoded. Over TCP the
/// connection is plain unless `?sslmode=require` (TLS, the server's certificate verified).
/// `?max_connections=N` (the tenant's, not libpq's) sizes the instance's pool: 16 by default.
/// `?connect_timeout=S` bounds, in seconds, each wait for the database (a connection and its
/// statements; libpq bounds the connecting only): 10 by default.
///
/// The password is a ``Secret``: the ``description`` shows `***` in its place, and no error of
/// the parser repeats the text it was given.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// How the server is reached.
    public enum Endpoint: Sendable, Hashable {
        /// A host name or address, and a TCP port.
        case tcp(host: String, port: Int)
        /// The directory of the server's Unix socket, and the port its file is named after.
        case socket(directory: String, port: Int)
    }

    /// The user the tenant connects as.
    public let user: String
    /// The user's password, if the server asks for one.
    public let password: Secret?
    /// How the server is reached.
    public let endpoint: Endpoint
    /// The database's name.
    public let database: String
    /// Whether TLS is required (`?sslmode=require`); TCP only.
    public let requiresTLS: Bool
    /// The most connections one tenant instance opens at once (`?max_connections=`).
    public let maximumConnections: Int
    /// The longest, in seconds, a call waits for the database (`?connect_timeout=`).
    public let timeout: Int

    /// Whether `text` is a PostgreSQL URL (`postgres://` or `postgresql://`) rather than a SQLite
    /// path or `:memory:`.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses a PostgreSQL URL with `URLComponents` (RFC 3986), then reads libpq's parameters.
    ///
    /// - Throws: `invalid_configuration` naming what is wrong, never repeating the text (it may
    ///   hold a password).
    public init(_ text: String) throws(TenantError) {
        guard Self.isPostgres(text) else { throw Self.malformed("the scheme is not postgres:// or postgresql://") }
        // `URLComponents` takes a `%` that starts no escape as a literal one; libpq refuses it.
        guard Self.hasWellFormedEscapes(text) else { throw Self.malformed("it has a malformed percent-encoding") }
        guard let components = URLComponents(string: text) else {
            throw Self.malformed("it is not a URL (a malformed percent-encoding, or a character to encode)")
        }
        let path = try Self.decoded(components.percentEncodedPath, components.path, "the database name") ?? ""
        guard path.hasPrefix("/"), path.count > 1, !path.dropFirst().contains("/") else {
            throw Self.malformed("it names no database")
        }
        database = String(path.dropFirst())
        user = try Self.decoded(components.percentEncodedUser, components.user, "the user") ?? ""
        guard !user.isEmpty else { throw Self.malformed("it names no user") }
        password = try Self.decoded(components.percentEncodedPassword, components.password, "the password")
            .map(Secret.init)
        var host = try Self.decoded(components.percentEncodedHost, components.host, "the host") ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") {  // [IPv6], should the host keep its brackets
            host = String(host.dropFirst().dropLast())
        }
        var port = try components.port.map { (port) throws(TenantError) in try Self.port(String(port)) }
        var socketDirectory: String?
        var requiresTLS = false
        var maximumConnections = 16
        var timeout = 10
        _ = try Self.decoded(components.percentEncodedQuery, components.query, "the query")
        for item in components.queryItems ?? [] {
            let name = item.name
            let value = item.value ?? ""
            switch name {
            case "host":
                guard value.hasPrefix("/") else { throw Self.malformed("?host= is not an absolute socket directory") }
                socketDirectory = value
            case "port":
                port = try Self.port(value)
            case "max_connections":
                guard let count = Int(value), (1...1_000).contains(count) else {
                    throw Self.malformed("max_connections is not 1–1000")
                }
                maximumConnections = count
            case "connect_timeout":
                guard let seconds = Int(value), (1...3_600).contains(seconds) else {
                    throw Self.malformed("connect_timeout is not 1–3600 seconds")
                }
                timeout = seconds
            case "sslmode":
                switch value {
                case "disable", "allow", "prefer": requiresTLS = false
                case "require", "verify-ca", "verify-full": requiresTLS = true
                default: throw Self.malformed("sslmode \(value) is not known")
                }
            default:
                throw Self.malformed(
                    "the parameter \(name) is not supported (host, port, sslmode, max_connections, connect_timeout are)"
                )
            }
        }
        self.requiresTLS = requiresTLS
        self.maximumConnections = maximumConnections
        self.timeout = timeout
        if let socketDirectory {
            guard host.isEmpty else { throw Self.malformed("it names both a host and ?host=") }
            guard !requiresTLS else { throw Self.malformed("TLS over a Unix socket is not supported") }
            endpoint = .socket(directory: socketDirectory, port: port ?? 5432)
        } else {
            guard !host.isEmpty else { throw Self.malformed("it names no host (a socket is ?host=/dir)") }
            endpoint = .tcp(host: host, port: port ?? 5432)
        }
    }

    /// The URL with `***` for the password: what logs and errors may show.
    public var description: String {
        Self.text(self, credentials: password == nil ? "" : ":***", database: database)
    }

    /// The URL of another database on the same server, as the same user: password included, so
    /// for the tests' plumbing only (`createDatabase(named:template:)`), never to print.
    package func text(database: String) -> String {
        Self.text(self, credentials: password.map { ":" + Self.encode($0.text) } ?? "", database: database)
    }

    /// The URL's text, with `credentials` after the user (`:***`, or the encoded password).
    private static func text(_ url: PostgresURL, credentials: String, database: String) -> String {
        let authority = encode(url.user) + credentials
        let pool =
            (url.maximumConnections == 16 ? [] : ["max_connections=\(url.maximumConnections)"])
            + (url.timeout == 10 ? [] : ["connect_timeout=\(url.timeout)"])
        switch url.endpoint {
        case .tcp(let host, let port):
            let shown = host.contains(":") ? "[\(host)]" : host
            let query = (url.requiresTLS ? ["sslmode=require"] : []) + pool
            return "postgres://\(authority)@\(shown):\(port)/\(encode(database))"
                + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        case .socket(let directory, let port):
            let query = ["host=\(directory)", "port=\(port)"] + pool
            return "postgres://\(authority)@/\(encode(database))?" + query.joined(separator: "&")
        }
    }

    /// The path of the server's socket file, for a socket endpoint (libpq §34.1.2, `host`).
    var socketPath: String? {
        guard case .socket(let directory, let port) = endpoint else { return nil }
        return "\(directory)/.s.PGSQL.\(port)"
    }

    private static func port(_ text: String) throws(TenantError) -> Int {
        guard let port = Int(text), (1...65_535).contains(port) else { throw malformed("the port is not 1–65535") }
        return port
    }

    /// A component `URLComponents` decoded (RFC 3986 §2.1), refused when it has one but its bytes
    /// are not UTF-8 once decoded.
    private static func decoded(_ encoded: String?, _ decoded: String?, _ what: String) throws(TenantError)
        -> String?
    {
        guard encoded != nil else { return nil }
        guard let decoded else { throw malformed("\(what) is not UTF-8 once decoded") }
        return decoded
    }

    /// Whether every `%` of `text` starts an escape of two hex digits (RFC 3986 §2.1).
    private static func hasWellFormedEscapes(_ text: String) -> Bool {
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else { continue }
            guard rest.count >= 2, rest.prefix(2).allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else {
                return false
            }
            rest = rest.dropFirst(2)
        }
        return true
    }

    /// Percent-encodes what is not unreserved (RFC 3986 §2.3), for ``description``.
    private static func encode(_ text: String) -> String { PercentEncoding.encode(text) }

    private static func malformed(_ reason: String) -> TenantError {
        TenantError(.invalidConfiguration, "The PostgreSQL URL is malformed: \(reason).")
    }
}
