import Auth0Passkeys
import FoundationEssentials
import InMemoryLogging
import Logging
import Synchronization
import TestSupport
import Testing
import WebAuthn

/// The `CredentialsManager` members issue 17 adds: API credentials stored and listed by
/// audience, a passphrase required for each use of the tokens (the analogue of
/// `enableBiometrics`), and an unreadable entry reported as such rather than as no session.
@Suite struct CredentialsManagerSealingTests {
    func manager(_ answer: ScriptedTransport, storage: any CredentialsStorage) throws -> CredentialsManager {
        CredentialsManager(authentication: try answer.authentication(), storage: storage)
    }

    func credentials(expiresIn seconds: TimeInterval) -> Credentials {
        Credentials(
            accessToken: "AT-0", tokenType: "Bearer", idToken: Fixtures.idToken, refreshToken: "RT-0",
            expiresAt: Date().addingTimeInterval(seconds), scope: "openid profile")
    }

    func api(_ token: String, scope: String = "read:a") -> APICredentials {
        APICredentials(
            accessToken: token, tokenType: "Bearer", expiresAt: Date().addingTimeInterval(3600), scope: scope)
    }

    @Test func apiCredentialsAreStoredListedAndClearedByAudienceAndScope() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let manager = try manager(answer, storage: InMemoryCredentialsStorage())
        try await manager.store(credentials: credentials(expiresIn: 3600))
        try await manager.store(apiCredentials: api("A-1"), forAudience: "https://a.example/", forScope: "read:a")
        try await manager.store(apiCredentials: api("B-1", scope: ""), forAudience: "https://b.example/")

        #expect(
            try await manager.apiCredentials(forAudience: "https://a.example/", scope: "read:a").accessToken == "A-1")
        #expect(answer.requests.isEmpty, "stored API credentials are used as they are")
        let listed = try await manager.storedAPICredentials()
        #expect(listed.map(\.audience) == ["https://a.example/", "https://b.example/"])
        #expect(listed.map(\.scope) == ["read:a", nil])
        #expect(listed.map(\.credentials.accessToken) == ["A-1", "B-1"])

        try await manager.clear(forAudience: "https://a.example/", scope: "read:a")
        try await manager.clear(forAudience: "https://a.example/", scope: "read:a")
        #expect(try await manager.storedAPICredentials().map(\.audience) == ["https://b.example/"])
        #expect(await manager.hasValid(), "the main credentials stay")
    }

    @Test func anEntryOfAnEarlierVersionListsItsKeyAsItsAudience() async throws {
        let storage = InMemoryCredentialsStorage()
        let former = #"{"access_token":"A-0","token_type":"Bearer","expires_in":4102444800,"scope":"read:a"}"#
        storage.setEntry(Array(former.utf8), forKey: "https://a.example/::read:a")
        let manager = try manager(ScriptedTransport(json: "{}"), storage: storage)
        let listed = try await manager.storedAPICredentials()
        #expect(listed.map(\.audience) == ["https://a.example/::read:a"] && listed.first?.scope == nil)
        try await manager.clear(forAudience: listed[0].audience, scope: listed[0].scope)
        #expect(storage.entryKeys().isEmpty)
    }

    @Test(.temporaryDirectory) func aRequiredPassphraseIsAskedForEachUseOfTheTokensButNotForTheUser() async throws {
        let directory = try TemporaryDirectory.current
        let storage = FileCredentialsStorage(
            directory: directory.appending("sessions"), sealing: .keyFile(directory.appending("key")))
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let manager = try manager(answer, storage: storage)
        try await manager.store(credentials: credentials(expiresIn: 3600))
        try await manager.requirePassphrase(Passphrase("open sesame"))
        #expect(await manager.requiresPassphrase)

        // Another manager over the same storage, as another process would be.
        let later = try self.manager(answer, storage: storage)
        #expect(await later.user?.sub == "auth0|ada")
        #expect(await later.hasValid())
        await #expect(throws: CredentialsManagerError(.passphraseRequired, "")) { try await later.credentials() }
        await later.setPassphrasePrompt { Passphrase("open says me") }
        await #expect(throws: CredentialsManagerError(.passphraseFailed, "")) { try await later.credentials() }
        await #expect(throws: CredentialsManagerError(.passphraseFailed, "")) {
            try await later.apiCredentials(forAudience: "https://a.example/")
        }
        await #expect(throws: CredentialsManagerError(.passphraseFailed, "")) { try await later.renew() }
        #expect(answer.requests.isEmpty)

        let asked = Counter()
        await later.setPassphrasePrompt {
            asked.increment()
            return Passphrase("open sesame")
        }
        #expect(try await later.credentials().accessToken == "AT-0")
        #expect(try await later.credentials().accessToken == "AT-0")
        #expect(asked.value == 2, "once per call")

        await #expect(throws: CredentialsManagerError(.passphraseFailed, "")) {
            try await later.stopRequiringPassphrase(Passphrase("wrong"))
        }
        try await later.stopRequiringPassphrase(Passphrase("open sesame"))
        await later.setPassphrasePrompt(nil)
        #expect(try await later.credentials().accessToken == "AT-0")
    }

    @Test(.temporaryDirectory) func anUnreadableSessionIsReadFailedNotNoCredentials() async throws {
        let directory = try TemporaryDirectory.current
        let path = directory.appending("sessions")
        let sealed = FileCredentialsStorage(directory: path, sealing: .keyFile(directory.appending("key")))
        try sealed.setEntry(Array("{}".utf8), forKey: "other")
        let manager = try manager(ScriptedTransport(json: "{}"), storage: sealed)
        try await manager.store(credentials: credentials(expiresIn: 3600))

        let elsewhere = try self.manager(
            ScriptedTransport(json: "{}"),
            storage: FileCredentialsStorage(directory: path, sealing: .keyFile(directory.appending("other.key"))))
        let error = await #expect(throws: CredentialsManagerError.self) { try await elsewhere.credentials() }
        #expect(error?.code == .readFailed)
        #expect((error?.cause as? CredentialsStorageError)?.code == .wrongKey)
        #expect(await elsewhere.user == nil)
        #expect(try await manager.credentials().accessToken == "AT-0", "nothing was lost")
    }

    @Test(.temporaryDirectory) func noTokenKeyOrPassphraseReachesALogOrAnError() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "test", factory: { _ in logs })
        logger.logLevel = .trace
        let directory = try TemporaryDirectory.current
        let passphrase = "correct-horse-battery"
        let answer = ScriptedTransport(json: Fixtures.tokens(refreshToken: "RT-rotated-secret"))
        let storage = FileCredentialsStorage(
            directory: directory.appending("sessions"), sealing: .passphrase(Passphrase(passphrase)))
        let manager = CredentialsManager(authentication: try answer.authentication(logger: logger), storage: storage)
        try await manager.store(credentials: credentials(expiresIn: 0))
        try await manager.requirePassphrase(Passphrase(passphrase))
        await manager.setPassphrasePrompt { Passphrase(passphrase) }
        let renewed = try await manager.renew()
        await manager.setPassphrasePrompt { Passphrase("not-it") }
        let failure = await #expect(throws: CredentialsManagerError.self) { try await manager.credentials() }
        let wrongStorage = FileCredentialsStorage(
            directory: storage.directory, sealing: .passphrase(Passphrase("other-passphrase")))
        let unreadable = await #expect(throws: CredentialsManagerError.self) {
            try await CredentialsManager(authentication: try answer.authentication(), storage: wrongStorage)
                .credentials()
        }

        var texts = logs.entries.map { "\($0.message) \($0.metadata ?? [:])" }
        texts += [failure, unreadable].compactMap { $0 }.flatMap { [String(describing: $0), String(reflecting: $0)] }
        texts += [String(describing: storage), String(describing: renewed), String(describing: manager)]
        #expect(!logs.entries.isEmpty, "the trace was on")
        for secret in [passphrase, "RT-rotated-secret", "RT-0", renewed.accessToken, "other-passphrase"] {
            for text in texts {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
        }
        for (name, bytes) in try SealedCredentialsStorageTests().files(storage.directory) {
            for secret in [passphrase, "RT-rotated-secret", renewed.accessToken] {
                #expect(!bytes.contains(subsequence: Array(secret.utf8)), "\(secret) in \(name)")
            }
        }
    }
}

/// A count shared with a `@Sendable` closure.
final class Counter: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    func increment() {
        count.withLock { $0 += 1 }
    }
}
