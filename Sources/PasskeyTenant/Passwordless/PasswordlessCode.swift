import FoundationEssentials
import WebAuthn

/// A passwordless code or magic link sent to one address (``PasswordlessAPI``), as
/// `passwordless_codes` keeps it (``TenantSchema`` v12): under the SHA-256 digest of the
/// application, the connection and the address in lower case (``key(clientID:connection:address:)``),
/// so that a new code for the same address replaces the last one, as on Auth0, whose support article
/// "Understanding Email OTP Behaviour" says only the most recent code is valid.
///
/// The code itself is never stored: its SHA-256 digest under the record's key is, compared in
/// constant time. A code is used once; after ``maximumWrongTries`` wrong ones it is void, as on
/// Auth0 ("the maximum of three attempts … is a hardcoded value").
struct PasswordlessCode: Sendable, Hashable, Codable {
    /// Wrong tries after which the code is void (Auth0's, not configurable there either).
    static let maximumWrongTries = 3

    /// The digest of the code (``digest(of:for:)``).
    var codeDigest: Base64URL
    /// The application that asked for it: only it redeems the code.
    var clientID: String
    /// `email` or `sms`.
    var connection: PasswordlessConnection
    /// The address as the request gave it.
    var address: String
    /// The wrong codes tried so far.
    var wrongTries = 0
    /// Whether the code was used.
    var used = false
    /// A magic link's authorization request (the start's `authParams`); nil for a code.
    var link: AuthorizationRequest?
    var expiresAt: Date

    enum CodingKeys: String, CodingKey {
        case codeDigest = "code_digest"
        case clientID = "client_id"
        case connection, address, link, used
        case wrongTries = "wrong_tries"
        case expiresAt = "expires_at"
    }

    /// The key of the code `clientID` asked for `address` on `connection`.
    static func key(clientID: String, connection: PasswordlessConnection, address: String) -> StoredValue {
        .digest(SHA256Digest.hash(Array("\(clientID)\n\(connection.rawValue)\n\(address.lowercased())".utf8)))
    }

    /// The digest a code is kept as: SHA-256 of the record's key and the code.
    static func digest(of code: String, for key: StoredValue) -> [UInt8] {
        guard case .blob(let salt) = key else { return SHA256Digest.hash(Array(code.utf8)) }
        return SHA256Digest.hash(salt + Array(code.utf8))
    }

    /// What presenting a code does to the record, and what it is answered. The store changes the
    /// record under its row lock (``TenantStore/update(_:key:at:_:)``) and returns it as it was, so
    /// the caller reads the verdict from that copy: of two callers, each sees the other's change.
    enum Verdict: Equatable {
        /// The code is right and was unused: the caller logs the user in.
        case accepted
        /// The code is wrong, or was used already.
        case wrong
        /// The code is void: too many wrong tries.
        case locked
    }

    /// The verdict on `digest` for the record as it is.
    func verdict(on digest: [UInt8]) -> Verdict {
        if wrongTries >= Self.maximumWrongTries { return .locked }
        if used { return .wrong }
        return constantTimeEquals(digest, codeDigest.bytes) ? .accepted : .wrong
    }

    /// The record after presenting `digest`: used when accepted, one more wrong try when wrong.
    mutating func present(_ digest: [UInt8]) {
        switch verdict(on: digest) {
        case .accepted: used = true
        case .wrong where !used: wrongTries += 1
        case .wrong, .locked: break
        }
    }
}

extension PasswordlessCode: ExpiringRecord {
    /// `passwordless_codes`: the record as JSON under the digest of its application, connection
    /// and address.
    static let table = ExpiringTable(name: "passwordless_codes", key: "digest", columns: [("body", .text)])

    var storedValues: [StoredValue] { [.json(self)] }

    init(storedValues values: [StoredValue], expiresAt: Date) throws(TenantError) {
        self = try values[0].decodedJSON(Self.self, what: "passwordless code")
    }
}

/// A passwordless connection: Auth0's two, by their names.
enum PasswordlessConnection: String, Sendable, Hashable, Codable {
    case email, sms

    /// How its messages travel.
    var channel: OutboxMessage.Channel {
        switch self {
        case .email: .email
        case .sms: .sms
        }
    }
}
