import FoundationEssentials
import WebAuthn

// The kinds of ``ExpiringRecord`` and their tables (``TenantSchema`` v1, v2, v6).

extension PendingSession: ExpiringRecord {
    /// `sessions`: the session as JSON under the digest of its `auth_session`.
    static let table = ExpiringTable(name: "sessions", key: "digest", columns: [("session", .text)])

    var storedValues: [StoredValue] { [.json(self)] }

    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError) {
        self = try values[0].decodedJSON(Self.self, what: "session")
    }
}

extension LoginTransaction: ExpiringRecord {
    /// `login_transactions`: the login page's transaction as JSON under the digest of its ID.
    static let table = ExpiringTable(name: "login_transactions", key: "digest", columns: [("body", .text)])

    var storedValues: [StoredValue] { [.json(self)] }

    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError) {
        self = try values[0].decodedJSON(Self.self, what: "login transaction")
    }
}

extension LoginSession: ExpiringRecord {
    /// `login_sessions`: the user, the login's time and the session's ID under the digest of the
    /// cookie's value.
    static let table = ExpiringTable(
        name: "login_sessions", key: "digest", columns: [("user_id", .text), ("auth_time", .real), ("sid", .text)])

    var storedValues: [StoredValue] { [.text(userID), .instant(authTime), .text(sessionID)] }

    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError) {
        self.init(
            userID: try values[0].text(), authTime: try values[1].instant(), expiresAt: expiresAt,
            sessionID: try values[2].optionalText())
    }
}

/// An authorization code with the identifiers the tokens of its redemption will carry, as
/// `authorization_codes` keeps it under the digest of the code (`redeemed` starts false).
struct IssuedCode: ExpiringRecord {
    static let table = ExpiringTable(
        name: "authorization_codes", key: "digest",
        columns: [("body", .text), ("access_jti", .text), ("refresh_family", .text)])

    var code: AuthorizationCode
    var identifiers: TokenIdentifiers

    init(code: AuthorizationCode, identifiers: TokenIdentifiers) {
        self.code = code
        self.identifiers = identifiers
    }

    var expiresAt: Date { code.expiresAt }

    var storedValues: [StoredValue] {
        [.json(code), .text(identifiers.accessTokenID), .text(identifiers.refreshFamily)]
    }

    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError) {
        code = try values[0].decodedJSON(AuthorizationCode.self, what: "authorization code")
        identifiers = TokenIdentifiers(accessTokenID: try values[1].text(), refreshFamily: try values[2].text())
    }
}

extension RefreshGrant: ExpiringRecord {
    /// `refresh_tokens`: the grant under the digest of its token (`rotated` starts false).
    static let table = ExpiringTable(
        name: "refresh_tokens", key: "digest",
        columns: [
            ("family", .text), ("user_id", .text), ("client_id", .text), ("scope", .text), ("audience", .text),
            ("organization", .text), ("auth_time", .real), ("dpop_jkt", .text), ("sid", .text),
        ])

    var storedValues: [StoredValue] {
        [
            .text(family), .text(userID), .text(clientID), .text(scope.joined(separator: " ")), .text(audience),
            .text(organization), .instant(authTime), .text(dpopJKT), .text(sessionID),
        ]
    }

    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError) {
        self.init(
            userID: try values[1].text(), clientID: try values[2].text(),
            scope: try values[3].text().split(separator: " ").map(String.init), audience: try values[4].optionalText(),
            organization: try values[5].optionalText(), family: try values[0].text(), expiresAt: expiresAt,
            authTime: try values[6].optionalInstant(), dpopJKT: try values[7].optionalText(),
            sessionID: try values[8].optionalText())
    }
}

/// A key remembered until a time, with nothing else: a record whose presence is all it says. Its
/// `Kind` names the table, and so what it marks: ``SeenProof`` and ``RevokedToken``.
struct RememberedKey<Kind: RememberedKind>: ExpiringRecord {
    static var table: ExpiringTable { Kind.table }

    let expiresAt: Date

    init(expiresAt: Date) {
        self.expiresAt = expiresAt
    }

    var storedValues: [StoredValue] { [] }

    init(storedValues values: [StoredValue], expiresAt: Date) {
        self.expiresAt = expiresAt
    }
}

/// What a ``RememberedKey`` marks: the table that keeps it (a key column and `expires_at`, no
/// value column).
protocol RememberedKind: Sendable {
    static var table: ExpiringTable { get }
}

/// A DPoP proof seen lately (RFC 9449 §11.1), as `dpop_proofs` keeps it: under the SHA-256 digest
/// of its key's thumbprint and its `jti`, until it is too old to be replayed.
typealias SeenProof = RememberedKey<SeenProofs>

/// The `dpop_proofs` table of ``SeenProof``.
enum SeenProofs: RememberedKind {
    static let table = ExpiringTable(name: "dpop_proofs", key: "digest", columns: [])
}

extension RememberedKey where Kind == SeenProofs {
    /// The key of the proof with `jti` signed by the key with `thumbprint`.
    static func key(thumbprint: String, jti: String) -> StoredValue {
        .digest(SHA256Digest.hash(Array("\(thumbprint) \(jti)".utf8)))
    }
}

/// A revoked access token (a replayed authorization code's, RFC 6749 §4.1.2), as `revoked_tokens`
/// keeps it: under its `jti`, until the token has expired anyway.
typealias RevokedToken = RememberedKey<RevokedTokens>

/// The `revoked_tokens` table of ``RevokedToken``.
enum RevokedTokens: RememberedKind {
    static let table = ExpiringTable(name: "revoked_tokens", key: "jti", columns: [])
}

extension StoredValue {
    /// A value as a JSON text column (pending sessions, login transactions, codes).
    static func json(_ value: some Encodable) -> StoredValue {
        .text(String(decoding: WebAuthnJSON.encode(value), as: UTF8.self))
    }

    /// A JSON text column read back.
    ///
    /// - Throws: `server_error` naming `what` for a value that does not decode (the database was
    ///   changed behind the tenant's back).
    func decodedJSON<T: Decodable>(_ type: T.Type, what: String) throws(TenantError) -> T {
        do {
            return try WebAuthnJSON.decode(type, from: Array(try text().utf8))
        } catch {
            throw TenantError(.serverError, status: 500, "corrupt \(what) row")
        }
    }
}
