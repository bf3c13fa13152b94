import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing

/// Two `passkey tenant serve` processes on one PostgreSQL database, driven with the libcurl client
/// and the software authenticator: what one instance starts the other finishes, and what must
/// happen once happens once across both (issue 31). Runs when `PASSKEY_TEST_POSTGRES` names a server.
///
/// One test at a time: each starts two processes, and on two cores more at once only test the
/// machine's patience.
@Suite(.enabled(if: PostgresFixture.isAvailable, "PASSKEY_TEST_POSTGRES names no PostgreSQL server"), .serialized)
struct CrossInstanceTests {
    /// Starts two instances at once on a new database, runs `body`, and stops both: each exits 0.
    /// The database is a copy of the migrated template (``TestTenant/defaultDatabase()``), or
    /// `empty`, when the two migrate it and store the signing key together.
    private func withTwoInstances(
        empty: Bool = false, _ body: @Sendable (TenantInstance, TenantInstance) async throws -> Void
    ) async throws {
        let database = try await empty ? PostgresFixture.emptyDatabase() : TestTenant.defaultDatabase()
        async let first = TenantInstance.start(database: database)
        async let second = TenantInstance.start(database: database)
        let (a, b) = try await (first, second)
        do {
            try await body(a, b)
        } catch {
            _ = try? await (a.stop(), b.stop())
            throw error
        }
        let (endedA, endedB) = try await (a.stop(), b.stop())
        #expect(endedA.status == 0, "\(endedA)")
        #expect(endedB.status == 0, "\(endedB)")
    }

    /// Two instances starting at once on an empty database migrate it once and sign with one key.
    @Test func bothInstancesServeTheSameJWKS() async throws {
        try await withTwoInstances(empty: true) { a, b in
            let (jwksA, jwksB) = try await (a.auth.jwks().start(), b.auth.jwks().start())
            #expect(jwksA == jwksB)
            #expect(jwksA.keys.count == 1)
            // A token signed at A verifies with B's keys: same key ID.
            let signup = try await a.signUp("ada@example.com", device: TenantInstance.device())
            let user = try await b.auth.userInfo(withAccessToken: signup.accessToken).start()
            #expect(user.email == "ada@example.com")
        }
    }

    @Test func aSignupChallengeFromAIsCompletedAtB() async throws {
        try await withTwoInstances { a, b in
            let phone = TenantInstance.device()
            let signup = try await a.signUp("ada@example.com", device: phone, completingAt: b)
            #expect(signup.refreshToken != nil)
            // The user and passkey are in the shared database: A logs them in.
            let login = try await a.logIn(device: phone)
            let user = try await a.auth.userInfo(withAccessToken: login.accessToken).start()
            #expect(user.email == "ada@example.com")
            // The email is taken at both.
            let taken = await #expect(throws: AuthenticationError.self) {
                try await b.auth.passkeySignupChallenge(email: "ada@example.com").start()
            }
            #expect(taken?.statusCode == 400)
        }
    }

    @Test func anAuthSessionUsedAtBIsRefusedAtA() async throws {
        try await withTwoInstances { a, b in
            let phone = TenantInstance.device()
            _ = try await a.signUp("ada@example.com", device: phone)
            let (challenge, passkey) = try await a.assertion(device: phone)
            _ = try await b.auth.login(passkey: passkey, challenge: challenge).start()
            let replayed = await #expect(throws: AuthenticationError.self) {
                try await a.auth.login(passkey: passkey, challenge: challenge).start()
            }
            #expect((400..<500).contains(replayed?.statusCode ?? 0), "\(String(describing: replayed))")
        }
    }

    @Test func aRefreshTokenRotatedAtAAndReusedAtBRevokesTheFamily() async throws {
        try await withTwoInstances { a, b in
            let signup = try await a.signUp("ada@example.com", device: TenantInstance.device())
            let original = try #require(signup.refreshToken)
            let rotated = try await a.auth.renew(withRefreshToken: original).start()
            let successor = try #require(rotated.refreshToken)
            #expect(successor != original)
            let reused = await #expect(throws: AuthenticationError.self) {
                try await b.auth.renew(withRefreshToken: original).start()
            }
            #expect(reused?.code == .invalidGrant)
            // Reuse revoked the family: the successor is dead at both instances.
            for instance in [a, b] {
                let dead = await #expect(throws: AuthenticationError.self) {
                    try await instance.auth.renew(withRefreshToken: successor).start()
                }
                #expect(dead?.code == .invalidGrant)
            }
        }
    }

    /// The same security-key assertion (one auth_session) sent to A and B at once: one login.
    @Test func oneSecurityKeyAssertionSentToBothAtOnceSucceedsOnce() async throws {
        try await withTwoInstances { a, b in
            let key = TenantInstance.device(profile: .securityKey)
            _ = try await a.signUp("ada@example.com", device: key)
            for _ in 0..<3 {
                let (challenge, passkey) = try await a.assertion(device: key)
                let outcomes = await TenantInstance.statuses(
                    atOnce: { try await a.auth.login(passkey: passkey, challenge: challenge).start() },
                    { try await b.auth.login(passkey: passkey, challenge: challenge).start() })
                #expect(outcomes.filter { $0 == 200 }.count == 1, "\(outcomes)")
                #expect(outcomes.allSatisfy { $0 == 200 || (400..<500).contains($0) }, "\(outcomes)")
            }
            // The counter moved once per login: the key still signs in.
            _ = try await b.logIn(device: key)
        }
    }

    /// A cloned security key: two assertions with the same counter, each for its own auth_session,
    /// sent to A and B at once: the counter's compare-and-set lets one through (WebAuthn L3 §6.1.1).
    @Test func twoAssertionsWithOneCounterAtBothInstancesSucceedOnce() async throws {
        try await withTwoInstances { a, b in
            let original = InMemoryCredentialStore()
            let key = TenantInstance.device(profile: .securityKey, store: original)
            _ = try await a.signUp("ada@example.com", device: key)
            let id = try #require(await original.credentials(rpID: "localhost").credentials.first).id
            let copy = InMemoryCredentialStore()
            _ = try await original.copyCredential(id: id, to: copy)
            let clone = TenantInstance.device(profile: .securityKey, store: copy)
            let (challengeA, challengeB) = try await (
                a.auth.passkeyLoginChallenge().start(), b.auth.passkeyLoginChallenge().start()
            )
            let fromKey = try await TenantInstance.assertion(key, for: challengeA)
            let fromClone = try await TenantInstance.assertion(clone, for: challengeB)
            let outcomes = await TenantInstance.statuses(
                atOnce: { try await a.auth.login(passkey: fromKey, challenge: challengeA).start() },
                { try await b.auth.login(passkey: fromClone, challenge: challengeB).start() })
            #expect(outcomes.filter { $0 == 200 }.count == 1, "\(outcomes)")
            #expect(outcomes.allSatisfy { $0 == 200 || $0 == 400 || $0 == 403 }, "\(outcomes)")
        }
    }
}
