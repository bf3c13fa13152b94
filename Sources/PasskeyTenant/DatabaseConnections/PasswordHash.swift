import BlockingIO
import FoundationEssentials
import Synchronization
import WebAuthn

/// A password as the tenant keeps it: scrypt (RFC 7914) of the password under a random salt, in a
/// PHC-like string that carries its parameters, so a later cost reads the hashes made before.
///
/// ```
/// $scrypt$ln=<log2 N>,r=<r>,p=<p>$<base64url salt, 16 bytes>$<base64url hash, 32 bytes>
/// ```
///
/// The string is not the password, yet it is what a dictionary attack starts from: it never
/// prints (`description` is `<redacted>`, the mirror empty), and no error or log carries it.
///
/// scrypt is 50–300 ms of CPU by design (RFC 7914 §2: memory-hard and slow), so hashing and
/// verifying run on a ``BlockingExecutor`` of their own, never on the Swift concurrency pool, whose
/// few threads (one per core) every request of the tenant shares.
struct PasswordHash: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The encoded string, as stored.
    let encoded: String

    /// The hash of `password` under a fresh salt, with cost N = 2^`logN`, r = 8, p = 1.
    ///
    /// - Throws: `server_error` when scrypt fails (never for input: any password hashes).
    static func make(_ password: Secret, logN: Int) async throws(TenantError) -> PasswordHash {
        try await offPool { () throws(TenantError) in try makeNow(password, logN: logN) }
    }

    /// Whether `password` is the one this hash was made of, compared in constant time.
    ///
    /// - Throws: `server_error` for a stored string that does not parse or whose cost is out of
    ///   bounds (the database was changed behind the tenant's back).
    func verifies(_ password: Secret) async throws(TenantError) -> Bool {
        try await Self.offPool { () throws(TenantError) in try verifiesNow(password) }
    }

    /// scrypt's queues, one per core, taken in turn: concurrent logins hash in parallel up to the
    /// machine's width and no further, so a burst of them holds at most that many 32 MiB blocks
    /// (a fresh queue per call had no bound).
    private static let executors = (0..<max(1, ProcessInfo.processInfo.activeProcessorCount)).map {
        BlockingExecutor(label: "PasswordHash-\($0)")
    }
    private static let turn = Atomic<Int>(0)

    /// Runs scrypt on the next of ``executors``, returning the result to the awaiting task.
    private static func offPool<Value: Sendable>(_ body: @escaping @Sendable () throws(TenantError) -> Value)
        async throws(TenantError) -> Value
    {
        let index = turn.wrappingAdd(1, ordering: .relaxed).oldValue
        return try await executors[Int(index.magnitude % UInt(executors.count))].run(body)
    }

    private static func makeNow(_ password: Secret, logN: Int) throws(TenantError) -> PasswordHash {
        let parameters = ScryptParameters(salt: Base64URL(SecureRandom.bytes(16)), n: 1 << UInt64(logN), r: 8, p: 1)
        let hash = try derive(password, parameters)
        return PasswordHash(
            encoded: "$scrypt$ln=\(logN),r=\(parameters.r),p=\(parameters.p)$\(parameters.salt.string)$"
                + Base64URL.encode(hash))
    }

    private func verifiesNow(_ password: Secret) throws(TenantError) -> Bool {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { throw Self.corrupt }
        var values: [Substring: UInt64] = [:]
        for pair in parts[2].split(separator: ",") {
            let nameValue = pair.split(separator: "=", maxSplits: 1)
            guard nameValue.count == 2, let value = UInt64(nameValue[1]) else { throw Self.corrupt }
            values[nameValue[0]] = value
        }
        guard let logN = values["ln"], (1...20).contains(logN), let r = values["r"], let p = values["p"],
            let salt = try? Base64URL.decode(String(parts[3])), let stored = try? Base64URL.decode(String(parts[4])),
            stored.count == 32
        else { throw Self.corrupt }
        let parameters = ScryptParameters(
            salt: Base64URL(salt), n: 1 << logN, r: UInt32(clamping: r), p: UInt32(clamping: p))
        guard parameters.isReasonable else { throw Self.corrupt }
        return constantTimeEquals(try Self.derive(password, parameters), stored)
    }

    private static func derive(_ password: Secret, _ parameters: ScryptParameters) throws(TenantError) -> [UInt8] {
        do {
            return try KDF.scrypt(
                password: Array(password.text.utf8), salt: parameters.salt.bytes, n: parameters.n, r: parameters.r,
                p: parameters.p, length: 32)
        } catch {
            throw TenantError(.serverError, status: 500, "scrypt failed: \(error.code)")
        }
    }

    var description: String { "<redacted>" }
    var debugDescription: String { "<redacted>" }
    var customMirror: Mirror { Mirror(self, children: [:]) }

    private static let corrupt = TenantError(.serverError, status: 500, "database: a corrupt password hash")
}
