import Foundation
import Logging
import TestSupport
import Testing
import WebAuthn

@testable import PasskeyTenant

/// The PostgreSQL URL forms (libpq §34.1.1), and the password kept out of every text.
@Suite struct PostgresURLTests {
    @Test func aTCPURLWithAPassword() throws {
        let url = try PostgresURL("postgres://ada:s%40cret@db.example:6543/tenant")
        #expect(url.user == "ada")
        #expect(url.password?.text == "s@cret")
        #expect(url.endpoint == .tcp(host: "db.example", port: 6543))
        #expect(url.database == "tenant")
        #expect(!url.requiresTLS)
        #expect(url.description == "postgres://ada:***@db.example:6543/tenant")
        #expect(!"\(url)".contains("cret"))
        #expect(!String(reflecting: url).contains("cret"))
    }

    @Test func theDefaultsAndTheOtherScheme() throws {
        let url = try PostgresURL("postgresql://ada@localhost/tenant?sslmode=require")
        #expect(url.password == nil)
        #expect(url.endpoint == .tcp(host: "localhost", port: 5432))
        #expect(url.requiresTLS)
        #expect(url.maximumConnections == 16)
        let tuned = try PostgresURL("postgres://u@h/d?max_connections=3&connect_timeout=30")
        #expect(tuned.maximumConnections == 3)
        #expect(tuned.timeout == 30)
        #expect(try PostgresURL(tuned.description) == tuned)
        #expect(try PostgresURL("postgres://ada@[::1]:7000/t").endpoint == .tcp(host: "::1", port: 7000))
    }

    @Test func aUnixSocket() throws {
        let url = try PostgresURL("postgres://postgres@/postgres?host=/var/run/postgresql")
        #expect(url.endpoint == .socket(directory: "/var/run/postgresql", port: 5432))
        #expect(url.socketPath == "/var/run/postgresql/.s.PGSQL.5432")
        #expect(try PostgresURL("postgres://u@:6000/d?host=/s").socketPath == "/s/.s.PGSQL.6000")
        #expect(try PostgresURL("postgres://u@/d?host=/s&port=6001").socketPath == "/s/.s.PGSQL.6001")
        // The text of another database on the same server keeps the password (tests' plumbing).
        let other = try PostgresURL(try PostgresURL("postgres://u:pw@/d?host=/s").text(database: "e"))
        #expect(other.database == "e")
        #expect(other.password?.text == "pw")
        #expect(other.endpoint == .socket(directory: "/s", port: 5432))
    }

    @Test func onlyPostgresSchemesArePostgres() {
        #expect(PostgresURL.isPostgres("postgres://u@h/d"))
        #expect(PostgresURL.isPostgres("postgresql://u@h/d"))
        #expect(!PostgresURL.isPostgres(":memory:"))
        #expect(!PostgresURL.isPostgres("/var/lib/tenant.sqlite"))
        #expect(!PostgresURL.isPostgres("mysql://u@h/d"))
    }

    @Test(arguments: [
        "postgres://ada:hunter2@host",  // no database
        "postgres://:hunter2@host/d",  // no user
        "postgres://ada:hunter2@/d",  // no host, no socket
        "postgres://ada:hunter2@host:99999/d",  // bad port
        "postgres://ada:hunter2@host/d?host=relative",  // socket not absolute
        "postgres://ada:hunter2@host/d?sslmode=sometimes",
        "postgres://ada:hunter2@host/d?application_name=x",
        "postgres://ada:hunter2%zz@host/d",  // bad percent-encoding
        "postgres://ada:hunter2@host/d?host=/s",  // both a host and a socket
    ])
    func aMalformedURLIsRefusedWithoutThePassword(_ text: String) {
        let error = #expect(throws: TenantError.self) { try PostgresURL(text) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error.map { !"\($0)".contains("hunter2") } == true)
    }

    @Test func anUnreachableServerIs503WithoutThePassword() async throws {
        let directory = try TemporaryDirectory(prefix: "nopg")
        defer { directory.remove() }
        let url = try PostgresURL("postgres://ada:hunter2@/d?host=\(directory.path)")
        let started = ContinuousClock.now
        let error = await #expect(throws: TenantError.self) {
            _ = try await PostgresTenantStore(url: url, timeout: .seconds(1), logger: Logger(label: "test"))
        }
        #expect(error?.code == .temporarilyUnavailable)
        #expect(error?.status == 503)
        #expect(error?.retryAfter == 1)
        #expect(error.map { !"\($0)".contains("hunter2") } == true)
        // A hang check, not a speed test: the call's deadline is 1 s, and closing the pool waits for
        // its connection attempts, which a whole suite on two cores can delay by tens of seconds.
        #expect(ContinuousClock.now - started < .seconds(90))
    }

    /// Making and dropping a database (the tests' and the growth bench's) fail with 503 when the
    /// server cannot be reached, within the URL's timeout, instead of waiting for the pool's
    /// connection attempts for ever.
    @Test(.timeLimit(.minutes(2))) func anUnreachableServerFailsADatabasesCreationAndDrop() async throws {
        let directory = try TemporaryDirectory(prefix: "nopg")
        defer { directory.remove() }
        let url = try PostgresURL("postgres://ada@/d?host=\(directory.path)&connect_timeout=1")
        let started = ContinuousClock.now
        let created = await #expect(throws: TenantError.self) { _ = try await url.createDatabase(named: "made") }
        let dropped = await #expect(throws: TenantError.self) { try await url.dropDatabase(named: "made") }
        #expect(created?.code == .temporarilyUnavailable)
        #expect(dropped?.code == .temporarilyUnavailable)
        // A hang check, as above: each call's deadline is 1 s.
        #expect(ContinuousClock.now - started < .seconds(90))
    }
}

/// Two stores on one PostgreSQL database, as two tenant instances: whatever must happen once
/// happens once (`PASSKEY_TEST_POSTGRES` names the server).
@Suite(.enabled(if: TestTenant.postgresServer != nil, "PASSKEY_TEST_POSTGRES names no PostgreSQL server"))
struct PostgresStoreTests {
    /// Two stores on a fresh database.
    static func twoStores() async throws -> (PostgresTenantStore, PostgresTenantStore) {
        let url = try PostgresURL(try await TestTenant.defaultDatabase())
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        async let first = PostgresTenantStore(url: url, maximumConnections: 4, logger: logger)
        async let second = PostgresTenantStore(url: url, maximumConnections: 4, logger: logger)
        return try await (first, second)
    }

    static let rounds = 20

    static func user(_ n: Int = 0) -> TenantUser {
        TenantUser(
            id: "auth0|\(n)", userHandle: [UInt8(n)], profile: UserProfile(email: "u\(n)@example.com"), metadata: [:],
            createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func twoStoresMigrateOnce() async throws {
        let url = try PostgresURL(try await TestDatabase.create())
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        async let first = PostgresTenantStore(url: url, maximumConnections: 2, logger: logger)
        async let second = PostgresTenantStore(url: url, maximumConnections: 2, logger: logger)
        let (a, b) = try await (first, second)
        #expect(try await a.appliedMigrations() == TenantSchema.migrations.map(\.version))
        #expect(try await b.setting("k") { "b" } == a.setting("k") { "a" })
        await a.close()
        await b.close()
    }

    @Test func anAuthSessionIsTakenOnce() async throws {
        let (a, b) = try await Self.twoStores()
        let now = Date()
        for round in 0..<Self.rounds {
            let session = PendingSession(
                kind: .login, clientID: "c", connection: "Username-Password-Authentication", organization: nil,
                challenge: [UInt8(round)], user: nil, expiresAt: now.addingTimeInterval(60))
            let digest = SHA256Digest.hash([UInt8(round)])
            try await a.insert(session, key: .digest(digest))
            async let first = a.take(PendingSession.self, key: .digest(digest), at: now)
            async let second = b.take(PendingSession.self, key: .digest(digest), at: now)
            let taken = try await [first, second].compactMap { $0 }
            #expect(taken == [session])
        }
        await a.close()
        await b.close()
    }

    @Test func aRefreshTokenRotatesOnceAndTheLoserRevokesTheFamily() async throws {
        let (a, b) = try await Self.twoStores()
        try await a.insertUser(Self.user())
        let now = Date()
        for round in 0..<Self.rounds {
            let grant = RefreshGrant(
                userID: Self.user().id, clientID: "c", scope: ["openid"], audience: nil, organization: nil,
                family: "f\(round)", expiresAt: now.addingTimeInterval(60), authTime: now)
            let digest = SHA256Digest.hash(Array("t\(round)".utf8))
            let successors = [SHA256Digest.hash(Array("a\(round)".utf8)), SHA256Digest.hash(Array("b\(round)".utf8))]
            try await a.insert(grant, key: .digest(digest))
            async let first = a.rotateRefreshToken(
                digest: digest, clientID: "c", successor: successors[0], expiresAt: grant.expiresAt, at: now)
            async let second = b.rotateRefreshToken(
                digest: digest, clientID: "c", successor: successors[1], expiresAt: grant.expiresAt, at: now)
            let rotated = try await [first, second].compactMap { $0 }
            #expect(rotated.count == 1)
            // The second use was a replay: the family is gone, the winner's successor too.
            for successor in successors {
                #expect(try await a.refreshGrant(digest: successor, clientID: "c", at: now) == nil)
            }
        }
        await a.close()
        await b.close()
    }

    @Test func aCounterMovesOnce() async throws {
        let (a, b) = try await Self.twoStores()
        let credential = TenantCredential(
            id: [1, 2, 3], methodID: "passkey|1", userID: Self.user().id, publicKey: [4], algorithm: .es256,
            signCount: 0, backupEligible: false, backedUp: false, aaguid: .zero, transports: ["usb"], userAgent: nil,
            createdAt: Date(), lastAuthenticatedAt: nil)
        try await a.createUser(Self.user(), credential: credential)
        for round in 0..<UInt32(Self.rounds) {
            let update = AssertionUpdate(
                credentialID: credential.id, previousSignCount: round, signCount: round + 1, backedUp: false,
                time: Date())
            async let first = a.recordAssertion(update, refresh: nil)
            async let second = b.recordAssertion(update, refresh: nil)
            #expect(try await [first, second].filter { $0 }.count == 1)
        }
        #expect(try await b.credential(id: credential.id)?.0.signCount == UInt32(Self.rounds))
        await a.close()
        await b.close()
    }

    /// The webauthn grant's writes are one transaction: of two logins racing with one counter, only
    /// the winner's refresh token is stored; a grant's absent values (no audience, organization,
    /// auth time, DPoP key or session) are stored as the NULLs they are.
    @Test func aLoginsRefreshTokenIsStoredOnlyWithItsCounter() async throws {
        let (a, b) = try await Self.twoStores()
        let credential = TenantCredential(
            id: [5, 6, 7], methodID: "passkey|2", userID: Self.user(2).id, publicKey: [4], algorithm: .es256,
            signCount: 0, backupEligible: false, backedUp: false, aaguid: .zero, transports: ["usb"], userAgent: nil,
            createdAt: Date(), lastAuthenticatedAt: nil)
        try await a.createUser(Self.user(2), credential: credential)
        // Whole seconds: an instant is stored as seconds since 1970, which a `Date` does not keep exactly.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        for round in 0..<UInt32(Self.rounds) {
            let grants = ["a", "b"].map { side in
                RefreshGrant(
                    userID: Self.user(2).id, clientID: "c", scope: ["openid", "offline_access"],
                    audience: side == "a" ? "https://api.example" : nil, organization: side == "a" ? "org_1" : nil,
                    family: "\(side)\(round)", expiresAt: now.addingTimeInterval(60), authTime: side == "a" ? now : nil,
                    dpopJKT: side == "a" ? "jkt" : nil, sessionID: side == "a" ? "sid" : nil)
            }
            let digests = ["a", "b"].map { SHA256Digest.hash(Array("login\($0)\(round)".utf8)) }
            let update = AssertionUpdate(
                credentialID: credential.id, previousSignCount: round, signCount: round + 1, backedUp: true, time: now)
            async let first = a.recordAssertion(update, refresh: (grants[0], .digest(digests[0])))
            async let second = b.recordAssertion(update, refresh: (grants[1], .digest(digests[1])))
            let applied = try await [first, second]
            #expect(applied.filter { $0 }.count == 1)
            for (index, digest) in digests.enumerated() {
                let stored = try await a.refreshGrant(digest: digest, clientID: "c", at: now)
                #expect(stored == (applied[index] ? grants[index] : nil))
            }
        }
        let (stored, _) = try #require(try await b.credential(id: credential.id))
        #expect(stored.signCount == UInt32(Self.rounds))
        #expect(stored.backedUp)
        await a.close()
        await b.close()
    }

    /// A login's one statement reads what ``TenantStore/credential(id:)`` and
    /// ``TenantStore/failures(of:since:)`` read: the credential, its owner, and the owner's
    /// failures in the window (the count and the oldest), none when there are none in it.
    @Test func aLoginReadsTheCredentialItsOwnerAndTheirFailuresAtOnce() async throws {
        let (a, b) = try await Self.twoStores()
        let credential = TenantCredential(
            id: [8, 9], methodID: "passkey|3", userID: Self.user(3).id, publicKey: [4], algorithm: .es256,
            signCount: 7, backupEligible: true, backedUp: false, aaguid: .zero, transports: ["internal", "hybrid"],
            userAgent: "agent", createdAt: Date(timeIntervalSince1970: 1_700_000_000), lastAuthenticatedAt: nil,
            name: "laptop", userHandle: [3])
        try await a.createUser(Self.user(3), credential: credential)
        let key = "user:" + Self.user(3).id
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(AttemptLimiter.Key.user(Self.user(3).id).storageKey == key)
        let none = try #require(try await b.loginCredential(id: credential.id, failuresSince: start))
        #expect(none.0 == credential)
        #expect(none.1 == (try await a.user(id: Self.user(3).id)))
        #expect(none.2 == nil)
        for offset in [0.0, 10, 20] {
            try await a.recordFailure(
                of: [key, "address:x"], at: start.addingTimeInterval(offset), forgetBefore: start)
        }
        let since = start.addingTimeInterval(5)
        let found = try #require(try await b.loginCredential(id: credential.id, failuresSince: since))
        #expect(found.2 == FailureWindow(count: 2, oldest: start.addingTimeInterval(10)))
        #expect(found.2 == (try await a.failures(of: [key], since: since))[key])
        #expect(try await b.loginCredential(id: [0], failuresSince: since) == nil)
        await a.close()
        await b.close()
    }

    @Test func everyStoreGetsTheFirstSetting() async throws {
        let (a, b) = try await Self.twoStores()
        for round in 0..<Self.rounds {
            async let first = a.setting("key\(round)") { "a" }
            async let second = b.setting("key\(round)") { "b" }
            let (x, y) = try await (first, second)
            #expect(x == y)
        }
        await a.close()
        await b.close()
    }

    /// What `body` throws, or nil.
    static func refusal(_ body: () async throws(TenantError) -> Void) async -> TenantError? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aConcurrentSignupWithTheSameEmailIsRefusedOnce() async throws {
        let (a, b) = try await Self.twoStores()
        for round in 0..<Self.rounds {
            var other = Self.user(round + 100)
            other.profile.email = "U\(round)@EXAMPLE.com"  // the same email, other case
            async let first = Self.refusal { () async throws(TenantError) in try await a.insertUser(Self.user(round)) }
            async let second = Self.refusal { () async throws(TenantError) in try await b.insertUser(other) }
            let refusals = await [first, second]
            #expect(refusals.compactMap { $0?.code } == [TenantError.Code.userExists])
        }
        #expect(try await a.users(email: "u0@example.COM").count == 1)
        await a.close()
        await b.close()
    }

    @Test func aDuplicateCredentialIsRefusedAsSQLiteRefusesIt() async throws {
        let (a, b) = try await Self.twoStores()
        let credential = TenantCredential(
            id: [9], methodID: "passkey|9", userID: Self.user().id, publicKey: [4], algorithm: .es256,
            signCount: 0, backupEligible: false, backedUp: false, aaguid: .zero, transports: [], userAgent: nil,
            createdAt: Date(), lastAuthenticatedAt: nil)
        try await a.createUser(Self.user(), credential: credential)
        var again = credential
        again.methodID = "passkey|10"
        let error = await #expect(throws: TenantError.self) { try await b.addCredential(again) }
        #expect(error?.code == .invalidRequest)
        let posted = await #expect(throws: TenantError.self) { try await b.insertPostedCredential(again) }
        #expect(posted?.status == 409)
        await a.close()
        await b.close()
    }

    @Test func attemptFailuresAreCountedForEveryInstance() async throws {
        let (a, b) = try await Self.twoStores()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        try await a.recordFailure(of: ["user:1", "address:x"], at: now, forgetBefore: now.addingTimeInterval(-60))
        try await b.recordFailure(
            of: ["user:1"], at: now.addingTimeInterval(1), forgetBefore: now.addingTimeInterval(-60))
        let windows = try await b.failures(of: ["user:1", "address:x", "user:2"], since: now.addingTimeInterval(-1))
        #expect(
            windows == [
                "user:1": FailureWindow(count: 2, oldest: now), "address:x": FailureWindow(count: 1, oldest: now),
            ])
        try await a.recordFailure(
            of: ["user:2"], at: now.addingTimeInterval(100), forgetBefore: now.addingTimeInterval(50))
        #expect(try await a.failures(of: ["user:1"], since: .distantPast).isEmpty)
        await a.close()
        await b.close()
    }
}
