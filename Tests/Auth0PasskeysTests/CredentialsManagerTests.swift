import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import TestSupport
import Testing
import WebAuthn

@testable import Auth0Passkeys

/// `CredentialsManager` (spec §9) over a scripted Auth0, so lifetimes and request counts are
/// exact, and `FileCredentialsStorage` on a real temporary directory.
@Suite struct CredentialsManagerTests {
    func manager(
        _ answer: ScriptedTransport, storage: any CredentialsStorage = InMemoryCredentialsStorage()
    ) throws -> CredentialsManager {
        CredentialsManager(authentication: try answer.authentication(), storeKey: "credentials", storage: storage)
    }

    func credentials(expiresIn seconds: TimeInterval, refreshToken: String? = "RT-0", scope: String? = "openid profile")
        -> Credentials
    {
        Credentials(
            accessToken: "AT-0", tokenType: "Bearer", idToken: Fixtures.idToken, refreshToken: refreshToken,
            expiresAt: Date().addingTimeInterval(seconds), scope: scope)
    }

    @Test func storeHasValidCanRenewClear() async throws {
        let manager = try manager(ScriptedTransport(json: "{}"))
        #expect(await !manager.hasValid())
        try await manager.store(credentials: credentials(expiresIn: 120))
        #expect(await manager.hasValid())
        #expect(await manager.hasValid(minTTL: 60))
        #expect(await !manager.hasValid(minTTL: 300))
        #expect(await manager.canRenew())
        #expect(await manager.user?.sub == "auth0|ada")
        #expect(await manager.user?.email == "ada@example.com")
        try await manager.clear()
        let valid = await manager.hasValid()
        let renewable = await manager.canRenew()
        let user = await manager.user
        #expect(!valid && !renewable && user == nil)
    }

    @Test func validCredentialsComeFromTheStore() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let manager = try manager(answer)
        try await manager.store(credentials: credentials(expiresIn: 3600))
        #expect(try await manager.credentials().accessToken == "AT-0")
        #expect(try await manager.credentials(withScope: "profile OPENID").accessToken == "AT-0")
        #expect(answer.requests.isEmpty)
    }

    @Test func expiringCredentialsAreRenewedAndStored() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens(refreshToken: nil))
        let manager = try manager(answer)
        try await manager.store(credentials: credentials(expiresIn: 30))
        let renewed = try await manager.credentials(minTTL: 60)
        #expect(renewed.accessToken == "AT-1")
        #expect(renewed.refreshToken == "RT-0")
        #expect(
            answer.body()
                == #"{"client_id":"\#(Fixtures.clientID)","grant_type":"refresh_token","refresh_token":"RT-0"}"#)
        #expect(try await manager.credentials(minTTL: 60).accessToken == "AT-1")
        #expect(answer.requests.count == 1)
    }

    @Test func aRotatedRefreshTokenReplacesTheOldOne() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens(refreshToken: "RT-1"))
        let manager = try manager(answer)
        try await manager.store(credentials: credentials(expiresIn: 0))
        #expect(try await manager.renew().refreshToken == "RT-1")
        _ = try await manager.renew()
        #expect(answer.body(1).contains(#""refresh_token":"RT-1""#))
    }

    @Test func aChangedScopeForcesARenewalWithOpenID() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let manager = try manager(answer)
        try await manager.store(credentials: credentials(expiresIn: 3600))
        _ = try await manager.credentials(withScope: "email")
        #expect(answer.body().contains(#""scope":"openid email""#))
    }

    @Test func aMinTTLLongerThanTheNewLifetimeFails() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens(expiresIn: "30"))
        let manager = try manager(answer)
        // An hour: short of the two asked for, and still valid however slowly a loaded machine runs this
        // (50 s of 60 once expired before the last line, in a test that waited a minute for a thread).
        try await manager.store(credentials: credentials(expiresIn: 3600))
        let error = await #expect(throws: CredentialsManagerError.self) { try await manager.credentials(minTTL: 7200) }
        #expect(error?.code == .largeMinTTL)
        #expect(error?.reason.contains("7200 s") == true)
        #expect(try await manager.credentials(minTTL: 0).accessToken == "AT-0")
    }

    @Test func missingCredentialsOrRefreshToken() async throws {
        let manager = try manager(ScriptedTransport(json: Fixtures.tokens()))
        await #expect(throws: CredentialsManagerError(.noCredentials, "")) { try await manager.credentials() }
        try await manager.store(credentials: credentials(expiresIn: 0, refreshToken: nil))
        await #expect(throws: CredentialsManagerError(.noRefreshToken, "")) { try await manager.credentials() }
        await #expect(throws: CredentialsManagerError(.noRefreshToken, "")) {
            try await manager.apiCredentials(forAudience: "https://api/")
        }
    }

    @Test func aFailedRenewalKeepsItsCause() async throws {
        let answer = ScriptedTransport(
            status: 403, json: #"{"error":"invalid_grant","error_description":"Unknown or invalid refresh token."}"#)
        let manager = try manager(answer)
        try await manager.store(credentials: credentials(expiresIn: 0))
        let error = await #expect(throws: CredentialsManagerError.self) { try await manager.credentials() }
        #expect(error?.code == .renewFailed)
        #expect((error?.cause as? AuthenticationError)?.isInvalidRefreshToken == true)
    }

    @Test func concurrentCallersShareOneRenewal() async throws {
        let answer = ScriptedTransport(delay: .milliseconds(100)) { _, index in
            .success(HTTPResponse(status: 200, body: Array(Fixtures.tokens(refreshToken: "RT-\(index + 1)").utf8)))
        }
        let manager = try manager(answer)
        try await manager.store(credentials: credentials(expiresIn: 0))
        let tokens = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<25 {
                group.addTask { try await manager.credentials().refreshToken }
            }
            return try await group.reduce(into: Set<String?>()) { $0.insert($1) }
        }
        #expect(answer.requests.count == 1)
        #expect(tokens == ["RT-1"])
    }

    @Test func revoke() async throws {
        let answer = ScriptedTransport(json: "")
        let manager = try manager(answer)
        try await manager.revoke()
        #expect(answer.requests.isEmpty)

        try await manager.store(credentials: credentials(expiresIn: 60, refreshToken: nil))
        try await manager.revoke()
        #expect(answer.requests.isEmpty)
        #expect(await !manager.hasValid())

        try await manager.store(credentials: credentials(expiresIn: 60))
        try await manager.revoke(headers: ["X-Why": "logout"])
        #expect(answer.body() == #"{"client_id":"\#(Fixtures.clientID)","token":"RT-0"}"#)
        #expect(answer.requests[0].header("X-Why") == "logout")
        #expect(await !manager.hasValid())
    }

    @Test func aFailedRevokeKeepsTheCredentials() async throws {
        let answer = ScriptedTransport(status: 400, json: #"{"error":"invalid_request"}"#)
        let manager = try manager(answer)
        try await manager.store(credentials: credentials(expiresIn: 60))
        let error = await #expect(throws: CredentialsManagerError.self) { try await manager.revoke() }
        #expect(error?.code == .revokeFailed)
        let valid = await manager.hasValid()
        let renewable = await manager.canRenew()
        #expect(valid && renewable)
    }

    @Test func apiCredentialsPerAudienceAndScope() async throws {
        let answer = ScriptedTransport { request, index in
            let body = String(decoding: request.body ?? [], as: UTF8.self)
            let audience = body.contains("/me/") ? "me" : "api"
            return .success(
                HTTPResponse(
                    status: 200,
                    body: Array(
                        (#"{"access_token":"AT-\#(audience)-\#(index)","token_type":"Bearer","expires_in":3600,"#
                            + #""scope":"openid read:me","id_token":"ID-\#(index)","refresh_token":"RT-\#(index + 1)"}"#)
                            .utf8)))
        }
        let storage = InMemoryCredentialsStorage()
        let manager = try manager(answer, storage: storage)
        try await manager.store(credentials: credentials(expiresIn: 3600))

        let me = try await manager.apiCredentials(forAudience: "https://login.example.com/me/", scope: "read:me")
        #expect(me.accessToken == "AT-me-0" && me.scope == "openid read:me")
        #expect(
            answer.body(0)
                == #"{"audience":"https://login.example.com/me/","client_id":"\#(Fixtures.clientID)","#
                + #""grant_type":"refresh_token","refresh_token":"RT-0","scope":"openid read:me"}"#)
        let main = try await manager.credentials()
        #expect(main.accessToken == "AT-0" && main.idToken == "ID-0" && main.refreshToken == "RT-1")

        #expect(
            try await manager.apiCredentials(forAudience: "https://login.example.com/me/", scope: "read:me")
                .accessToken == "AT-me-0")
        #expect(answer.requests.count == 1)

        let api = try await manager.apiCredentials(forAudience: "https://api.example.com/")
        #expect(api.accessToken == "AT-api-1")
        #expect(answer.body(1).contains(#""refresh_token":"RT-1""#))
        #expect(storage.entry(forKey: "https://login.example.com/me/::read:me") != nil)
        #expect(storage.entry(forKey: "https://api.example.com/") != nil)

        try await manager.clear(forAudience: "https://api.example.com/")
        #expect(storage.entry(forKey: "https://api.example.com/") == nil)
        #expect(await manager.hasValid())
    }

    @Test func apiKeysAndScopeComparison() {
        #expect(CredentialsManager.apiKey("aud", nil) == "aud")
        #expect(CredentialsManager.apiKey("aud", "b  A") == "aud::a::b")
        #expect(!CredentialsManager.apiScopeChanged("openid b a", "a b"))
        #expect(CredentialsManager.apiScopeChanged("a", "a openid"))
        #expect(!CredentialsManager.scopeChanged("openid profile", nil))
        #expect(CredentialsManager.scopeChanged("openid profile", "profile"))
    }

    @Test func fileStorageIsAtomicAndPrivate() throws {
        let directory = try TemporaryDirectory(prefix: "auth0-tests")
        defer { directory.remove() }
        let storage = FileCredentialsStorage(
            directory: directory.path + "/nested/auth0", sealing: .keyFile(directory.path + "/storage.key"))
        try storage.setEntry(Array("one".utf8), forKey: "https://login.example.com/me/::read:me")
        try storage.setEntry(Array("two".utf8), forKey: "https://login.example.com/me/::read:me")
        try storage.setEntry(Array("main".utf8), forKey: "credentials")
        #expect(try storage.entry(forKey: "https://login.example.com/me/::read:me") == Array("two".utf8))
        #expect(try storage.entry(forKey: "missing") == nil)

        #expect(try mode(storage.directory) == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: storage.directory).sorted()
        #expect(names.count == 2)
        #expect(names.allSatisfy { $0.hasSuffix(".sealed") && !$0.contains("/") })
        for name in names {
            #expect(try mode(storage.directory + "/" + name) == 0o600)
        }

        try storage.deleteEntry(forKey: "credentials")
        try storage.deleteEntry(forKey: "credentials")
        #expect(try storage.entry(forKey: "credentials") == nil)
        try storage.deleteAllEntries()
        #expect(try FileManager.default.contentsOfDirectory(atPath: storage.directory).isEmpty)
    }

    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }

    @Test func fileStorageUnderAManager() async throws {
        let directory = try TemporaryDirectory(prefix: "auth0-tests")
        defer { directory.remove() }
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let sealing = CredentialsSealing.keyFile(directory.path + "/storage.key")
        let first = try manager(answer, storage: FileCredentialsStorage(directory: directory.path, sealing: sealing))
        try await first.store(credentials: credentials(expiresIn: 0))
        _ = try await first.credentials()
        let second = try manager(answer, storage: FileCredentialsStorage(directory: directory.path, sealing: sealing))
        #expect(try await second.credentials().accessToken == "AT-1")
        let text = String(
            decoding: try FileCredentialsStorage(directory: directory.path, sealing: sealing).entry(
                forKey: "credentials")
                ?? [],
            as: UTF8.self)
        #expect(text.contains(#""expires_at":"#) && text.contains(#""refresh_token":"v1.Mr5-refresh-opaque""#))
    }

    /// A main entry exactly as the manager wrote it before `Credentials` became its own stored
    /// form (the keys of the former `StoredCredentials` mirror, `expires_at` in seconds since 1970).
    static let entryInTheFormerFormat = """
        {"access_token":"AT-0","token_type":"Bearer","id_token":"\(Fixtures.idToken)",\
        "refresh_token":"RT-0","expires_at":4102444800.25,"scope":"openid profile","recovery_code":"RC-0"}
        """

    @Test func anEntryInTheFormerFormatLoads() async throws {
        let directory = try TemporaryDirectory(prefix: "auth0-tests")
        defer { directory.remove() }
        let storage = FileCredentialsStorage(directory: directory.path, sealing: .keyFile(directory.path + "/key"))
        try storage.setEntry(Array(Self.entryInTheFormerFormat.utf8), forKey: "credentials")
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let manager = try manager(answer, storage: storage)
        let credentials = try await manager.credentials()
        #expect(
            credentials
                == Credentials(
                    accessToken: "AT-0", tokenType: "Bearer", idToken: Fixtures.idToken, refreshToken: "RT-0",
                    expiresAt: Date(timeIntervalSince1970: 4_102_444_800.25), scope: "openid profile",
                    recoveryCode: "RC-0"))
        #expect(await manager.user?.sub == "auth0|ada")
        #expect(answer.requests.isEmpty)
    }

    @Test func storedEntriesKeepTheFormerFormat() async throws {
        let storage = InMemoryCredentialsStorage()
        let manager = try manager(ScriptedTransport(json: "{}"), storage: storage)
        try await manager.store(
            credentials: Credentials(
                accessToken: "AT-0", tokenType: "Bearer", idToken: "ID-0",
                expiresAt: Date(timeIntervalSince1970: 4_102_444_800.25)))
        let written = #"{"access_token":"AT-0","expires_at":4102444800.25,"id_token":"ID-0","token_type":"Bearer"}"#
        #expect(storage.entry(forKey: "credentials") == Array(written.utf8))
        let stored = Credentials(
            accessToken: "AT-0", tokenType: "Bearer", idToken: "ID-0", refreshToken: "RT-0",
            expiresAt: Date(timeIntervalSince1970: 4_102_444_800.25), scope: "openid", recoveryCode: "RC-0")
        #expect(try JSONDecoder().decode(Credentials.self, from: JSONEncoder().encode(stored)) == stored)
    }

    @Test func storageCallsRunOffTheConcurrencyPool() async throws {
        // More managers than the pool has threads, each blocked in its storage until all are:
        // on the pool they could not all get there, and the waits would time out.
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let storage = GatedStorage()
        let managers = try (0..<count).map { _ in try manager(ScriptedTransport(json: "{}"), storage: storage) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for manager in managers {
                group.addTask { try await manager.store(credentials: credentials(expiresIn: 60)) }
            }
            while storage.waiting < count && storage.timeouts == 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            storage.open(count)
            try await group.waitForAll()
        }
        #expect(storage.timeouts == 0)
    }

    @Test func anUnwritableStorageFailsTheStore() async throws {
        let directory = try TemporaryDirectory(prefix: "auth0-tests")
        defer { directory.remove() }
        #expect(chmod(directory.path, 0o500) == 0)
        defer { chmod(directory.path, 0o700) }
        let manager = try manager(
            ScriptedTransport(json: "{}"),
            storage: FileCredentialsStorage(
                directory: directory.path + "/store", sealing: .keyFile(directory.path + "/store.key")))
        guard getuid() != 0 else { return }  // root ignores the mode
        let error = await #expect(throws: CredentialsManagerError.self) {
            try await manager.store(credentials: credentials(expiresIn: 60))
        }
        #expect(error?.code == .storeFailed && error?.cause is CredentialsStorageError)
    }
}

/// A storage whose writes wait at a gate, up to a minute each (long enough for threads to start
/// on a loaded machine; a write stuck on the pool would wait that long), counting the waits that
/// timed out.
final class GatedStorage: CredentialsStorage {
    private let gate = DispatchSemaphore(value: 0)
    private let counts = Mutex<(waiting: Int, timeouts: Int)>((0, 0))

    var waiting: Int { counts.withLock { $0.waiting } }
    var timeouts: Int { counts.withLock { $0.timeouts } }

    /// Lets `count` writes through.
    func open(_ count: Int) {
        for _ in 0..<count { gate.signal() }
    }

    func entry(forKey key: String) -> [UInt8]? { nil }

    func setEntry(_ value: [UInt8], forKey key: String) {
        counts.withLock { $0.waiting += 1 }
        if gate.wait(timeout: .now() + 60) == .timedOut {
            counts.withLock { $0.timeouts += 1 }
        }
    }

    func deleteEntry(forKey key: String) {}

    func deleteAllEntries() {}

    func entryKeys() -> [String] { [] }
}
