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

    /// Parses a PostgreSQL URL.
    ///
    /// - Throws: `invalid_configuration` naming what is wrong, never repeating the text (it may
    ///   hold a password).
    public init(_ text: String) throws(TenantError) {
        guard Self.isPostgres(text) else { throw Self.malformed("the scheme is not postgres:// or postgresql://") }
        var rest = text.drop(while: { $0 != ":" }).dropFirst("://".count)
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        guard let slash = rest.firstIndex(of: "/") else { throw Self.malformed("it names no database") }
        let authority = rest[..<slash]
        let database = try Self.decode(rest[rest.index(after: slash)...], "the database name")
        guard !database.isEmpty, !database.contains("/") else { throw Self.malformed("it names no database") }
        guard let at = authority.lastIndex(of: "@") else { throw Self.malformed("it names no user") }
        let userInfo = authority[..<at]
        let hostPort = authority[authority.index(after: at)...]
        var password: Secret?
        var user = userInfo
        if let colon = userInfo.firstIndex(of: ":") {
            user = userInfo[..<colon]
            password = Secret(try Self.decode(userInfo[userInfo.index(after: colon)...], "the password"))
        }
        self.user = try Self.decode(user, "the user")
        guard !self.user.isEmpty else { throw Self.malformed("it names no user") }
        self.password = password
        self.database = database

        var host = String(hostPort)
        var port: Int?
        if host.hasPrefix("[") {  // [IPv6]:PORT
            guard let close = host.firstIndex(of: "]") else { throw Self.malformed("the host is malformed") }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                port = try Self.port(after.dropFirst())
            } else if !after.isEmpty {
                throw Self.malformed("the host is malformed")
            }
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            port = try Self.port(host[host.index(after: colon)...])
            host = String(host[..<colon])
        }
        var socketDirectory: String?
        var requiresTLS = false
        var maximumConnections = 16
        var timeout = 10
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0]
            let value = try Self.decode(parts.count == 2 ? parts[1] : "", "the parameter \(name)")
            switch name {
            case "host":
                guard value.hasPrefix("/") else { throw Self.malformed("?host= is not an absolute socket directory") }
                socketDirectory = value
            case "port":
                port = try Self.port(Substring(value))
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
    /// for the tests' plumbing only (``PostgresTenantStore/createDatabase(_:at:)``), never to print.
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

    private static func port(_ text: Substring) throws(TenantError) -> Int {
        guard let port = Int(text), (1...65_535).contains(port) else { throw malformed("the port is not 1–65535") }
        return port
    }

    /// Undoes percent-encoding (RFC 3986 §2.1).
    private static func decode(_ text: Substring, _ what: String) throws(TenantError) -> String {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw malformed("\(what) has a malformed percent-encoding")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw malformed("\(what) is not UTF-8")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Percent-encodes what is not unreserved (RFC 3986 §2.3), for ``description``.
    private static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-._~".contains(character) {
                result.append(character)
            } else {
                result +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true)
                    + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return result
    }

    private static func malformed(_ reason: String) -> TenantError {
        TenantError(.invalidConfiguration, "The PostgreSQL URL is malformed: \(reason).")
    }
}
