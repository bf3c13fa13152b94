import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport

@testable import passkey

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `passkey tenant serve --db postgres://…` process, and the real libcurl client that talks to
/// it: instances of one tenant sharing one database, as behind a load balancer (issue 31).
struct TenantInstance: Sendable {
    /// The client ID every instance serves (`--client-id`), so a client may talk to any of them.
    static let clientID = "cross-instance"

    let process: ChildProcess
    let baseURL: String
    let auth: Authentication

    /// Starts an instance on `database` and waits for its start line.
    ///
    /// - Throws: when it exits before listening (its standard error says why) or prints no start line.
    static func start(database: String) async throws -> TenantInstance {
        let process = try await ChildProcess.start(
            CLIProcess.executable,
            ["tenant", "serve", "--port", "0", "--json", "--db", database, "--client-id", clientID],
            readyWhen: { $0.contains("\n") })
        guard let json = process.startOutput.split(separator: "\n").first else {
            let result = try await process.wait()
            throw InstanceFailed(reason: "no start line: \(result.stderr)")
        }
        let line = try JSONDecoder().decode(Passkey.Tenant.StartLine.self, from: Data(json.utf8))
        return TenantInstance(
            process: process, baseURL: line.url, auth: try Authentication(clientId: line.clientID, baseURL: line.url))
    }

    /// Ends the instance with SIGTERM and returns how it ended; one still running 20 seconds later
    /// (a request that never finishes keeps the drain waiting) gets SIGKILL, and the failure
    /// carries what it wrote on standard error.
    func stop() async throws -> ProcessResult {
        process.send(SIGTERM)
        let process = self.process
        if let ended = try await PostgresFixture.answer(within: .seconds(20), { try await process.wait() }) {
            return ended
        }
        // The cancelled wait sent SIGTERM again, then SIGKILL.
        let killed = try? await process.wait()
        throw InstanceFailed(
            reason: "still running 20 s after SIGTERM; standard error: \(killed?.stderr ?? "not read")")
    }

    /// A device: a software authenticator with its own store, behind the platform provider.
    static func device(
        profile: AuthenticatorProfile = .platform, store: InMemoryCredentialStore = InMemoryCredentialStore()
    ) -> PlatformCredentialProvider {
        PlatformCredentialProvider(
            relyingPartyIdentifier: "localhost", authenticator: SoftwareAuthenticator(store: store, profile: profile))
    }

    /// Signs `email` up with a new passkey of `device`: the challenge from this instance, the
    /// registration completed at `completing` (this instance by default).
    func signUp(
        _ email: String, device: PlatformCredentialProvider, completingAt completing: TenantInstance? = nil
    ) async throws -> Credentials {
        let (challenge, passkey) = try await registration(email, device: device)
        return try await (completing ?? self).auth.login(passkey: passkey, challenge: challenge).start()
    }

    /// A signup challenge for `email` from this instance, and a new passkey of `device` answering it.
    func registration(_ email: String, device: PlatformCredentialProvider) async throws -> (
        PasskeySignupChallenge, PlatformCredentialRegistration
    ) {
        let challenge = try await auth.passkeySignupChallenge(email: email, name: "Test User").start()
        let passkey = try await device.register(
            device.createCredentialRegistrationRequest(
                challenge: challenge.challengeData, name: challenge.userName, userID: challenge.userId))
        return (challenge, passkey)
    }

    /// A login challenge from this instance, and an assertion of `device` answering it.
    func assertion(device: PlatformCredentialProvider) async throws -> (
        PasskeyLoginChallenge, PlatformCredentialAssertion
    ) {
        let challenge = try await auth.passkeyLoginChallenge().start()
        return (challenge, try await Self.assertion(device, for: challenge))
    }

    /// An assertion of `device` answering `challenge`.
    static func assertion(_ device: PlatformCredentialProvider, for challenge: PasskeyLoginChallenge) async throws
        -> PlatformCredentialAssertion
    {
        try await device.assert(device.createCredentialAssertionRequest(challenge: challenge.challengeData))
    }

    /// Signs in with a passkey of `device` at this instance.
    func logIn(device: PlatformCredentialProvider) async throws -> Credentials {
        let (challenge, passkey) = try await assertion(device: device)
        return try await auth.login(passkey: passkey, challenge: challenge).start()
    }

    /// 200 when `call` succeeds, else the HTTP status of the tenant's refusal (0 for a failure
    /// without one: a timeout, a reset connection).
    static func status(of call: @Sendable () async throws -> Credentials) async -> Int {
        do {
            _ = try await call()
            return 200
        } catch let error as AuthenticationError {
            return error.statusCode
        } catch {
            return 0
        }
    }

    /// The statuses of two calls made at once (``status(of:)`` of each), in order: the
    /// cross-instance races' one shape.
    static func statuses(
        atOnce first: @escaping @Sendable () async throws -> Credentials,
        _ second: @escaping @Sendable () async throws -> Credentials
    ) async -> [Int] {
        async let one = status(of: first)
        async let two = status(of: second)
        return await [one, two]
    }

    /// The status and `Retry-After` of `POST /passkey/register` (a signup challenge for a new
    /// email, which the tenant stores), within `timeout`.
    func challengeStatus(timeout: TimeInterval = 20) async throws -> (status: Int, retryAfter: String?) {
        var request = URLRequest(url: try url("/passkey/register"), timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let email = "probe-\(UInt64.random(in: 0...UInt64.max))@example.com"
        request.httpBody = Data(#"{"client_id":"\#(Self.clientID)","user_profile":{"email":"\#(email)"}}"#.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        let http = try cast(response)
        return (http.statusCode, http.value(forHTTPHeaderField: "Retry-After"))
    }

    private func url(_ path: String) throws -> URL {
        guard let url = URL(string: baseURL + path) else { throw InstanceFailed(reason: "bad URL \(baseURL)") }
        return url
    }

    private func cast(_ response: URLResponse) throws -> HTTPURLResponse {
        guard let http = response as? HTTPURLResponse else { throw InstanceFailed(reason: "not HTTP") }
        return http
    }
}

/// An instance or the database did not do what the test needs to go on.
struct InstanceFailed: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

/// The PostgreSQL server of `PASSKEY_TEST_POSTGRES` (``TestTenant/postgresServer``), databases on
/// it, `psql`, and `Tests/Support/pg-cluster.sh` for a cluster of a test's own.
enum PostgresFixture {
    /// Whether the tests run against PostgreSQL (`make postgres-test` sets `PASSKEY_TEST_POSTGRES`).
    static var isAvailable: Bool { TestTenant.postgresServer != nil }

    /// `Tests/Support/pg-cluster.sh` of this checkout.
    static let clusterScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Support/pg-cluster.sh").path

    /// A new empty database (no schema: the instances migrate it) on `server`, by default the
    /// tests' server; its URL.
    static func emptyDatabase(on server: String? = TestTenant.postgresServer) async throws -> String {
        try await TestDatabase.create(on: server)
    }

    /// Runs `sql` with `psql` on the database at `url` and returns its unaligned rows, one a line.
    static func psql(_ url: String, _ sql: String) async throws -> [String] {
        let result = try await ChildProcess.run(
            "/usr/lib/postgresql/15/bin/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql],
            timeout: .seconds(30))
        guard result.status == 0 else { throw InstanceFailed(reason: "psql: \(result.stderr)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// Runs `pg-cluster.sh ACTION DIR` and returns what it printed (the admin URL for start).
    @discardableResult
    static func cluster(_ action: String, _ directory: String) async throws -> String {
        let result = try await ChildProcess.run("/bin/bash", [clusterScript, action, directory], timeout: .seconds(90))
        guard result.status == 0 else { throw InstanceFailed(reason: "pg-cluster.sh \(action): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `body`'s value, or a failure after `limit`: no wait of these tests is unbounded.
    static func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T)
        async throws -> T
    {
        guard let value = try await answer(within: limit, { try await body() }) else {
            throw InstanceFailed(reason: "no answer within \(limit)")
        }
        return value
    }

    /// `body`'s value, or nil after `limit` (`body` is cancelled).
    static func answer<T: Sendable>(within limit: Duration, _ body: @escaping @Sendable () async throws -> T?)
        async throws -> T?
    {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }
}
