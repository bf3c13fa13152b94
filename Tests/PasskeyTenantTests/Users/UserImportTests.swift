import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

@testable import PasskeyTenant

/// The tenant's bulk path (``PasskeyTenant/importUsers(_:)``, issue 46): users imported with
/// passkeys made on devices log in natively (auth0-passkey-api.md §2, §3), and a batch that
/// breaks a rule of the Management API's (§15.2, §15.3) is refused whole, with nothing stored.
/// On SQLite, and on PostgreSQL when `PASSKEY_TEST_POSTGRES` names a server (make postgres-test).
@Suite struct UserImportTests {
    /// A user with a passkey made on a device of its own.
    struct Imported {
        let user: ImportedUser
        let device: WebAuthnClient
    }

    static func imported(_ email: String) async throws -> Imported {
        let device = TenantHarness.device()
        let passkey = try await MadePasskey.make(on: device)
        return Imported(
            user: ImportedUser(
                profile: UserProfile(email: email), userHandle: passkey.userHandle, credentialID: passkey.credentialID,
                publicKey: passkey.publicKey, backupEligible: passkey.backupEligible,
                backedUp: passkey.backupEligible),
            device: device)
    }

    /// The users stored with `email`.
    static func stored(_ harness: TenantHarness, _ email: String) async throws -> [TenantUser] {
        try await harness.tenant.services.store.users(email: email)
    }

    @Test func importedUsersLogInWithTheirPasskeys() async throws {
        let harness = try await TenantHarness()
        var made: [Imported] = []
        for index in 0..<3 {
            made.append(try await Self.imported("Ada\(index)@Example.com"))
        }
        let users = made
        let ids = try await harness.tenant.importUsers(users.map(\.user))
        #expect(ids.count == 3)
        #expect(Set(ids).count == 3)
        let subjects = try await harness.router { http in
            var subjects: [JSONValue?] = []
            for user in users.reversed() {
                subjects.append(try jwtClaims(try await harness.logIn(http, device: user.device).idToken)["sub"])
            }
            return subjects
        }
        #expect(subjects == ids.reversed().map { .string($0) })
        let stored = try #require(try await Self.stored(harness, "ada1@example.com").first)
        #expect(stored.id == ids[1])
        #expect(stored.profile.email == "ada1@example.com")
        let credentials = try await harness.tenant.services.store.credentials(userID: ids[1])
        #expect(credentials.map(\.id) == [users[1].user.credentialID])
        #expect(credentials.first?.backupEligible == users[1].user.backupEligible)
    }

    /// What importing `batch` is refused with; nil when it is stored.
    static func refusal(_ harness: TenantHarness, _ batch: [ImportedUser]) async -> TenantError? {
        do {
            _ = try await harness.tenant.importUsers(batch)
            return nil
        } catch {
            return error
        }
    }

    /// A harness holding Ada, imported.
    static func holdingAda() async throws -> (TenantHarness, ImportedUser) {
        let harness = try await TenantHarness()
        let ada = try await imported("ada@example.com").user
        _ = try await harness.tenant.importUsers([ada])
        return (harness, ada)
    }

    @Test func aTakenEmailRefusesTheWholeBatch() async throws {
        let (harness, _) = try await Self.holdingAda()
        let batch = [
            try await Self.imported("grace@example.com").user, try await Self.imported("ADA@example.com").user,
        ]
        let error = await Self.refusal(harness, batch)
        #expect(error?.code == .userExists && error?.status == 409, "\(String(describing: error))")
        #expect(try await Self.stored(harness, "grace@example.com").isEmpty)
    }

    @Test func anEmailTwiceInOneBatchRefusesIt() async throws {
        let harness = try await TenantHarness()
        let batch = [try await Self.imported("ada@example.com").user, try await Self.imported("ada@example.com").user]
        #expect(await Self.refusal(harness, batch)?.code == .userExists)
        #expect(try await Self.stored(harness, "ada@example.com").isEmpty)
    }

    @Test func aTakenUserHandleRefusesTheBatch() async throws {
        let (harness, ada) = try await Self.holdingAda()
        var grace = try await Self.imported("grace@example.com").user
        grace.userHandle = ada.userHandle
        #expect(await Self.refusal(harness, [grace])?.code == .userExists)
        #expect(try await Self.stored(harness, "grace@example.com").isEmpty)
    }

    @Test func aRegisteredCredentialIDRefusesTheBatch() async throws {
        let (harness, ada) = try await Self.holdingAda()
        var alan = try await Self.imported("alan@example.com").user
        alan.credentialID = ada.credentialID
        let error = await Self.refusal(harness, [try await Self.imported("grace@example.com").user, alan])
        #expect(error?.code == .conflict && error?.status == 409, "\(String(describing: error))")
        #expect(try await Self.stored(harness, "grace@example.com").isEmpty)
        #expect(try await Self.stored(harness, "alan@example.com").isEmpty)
    }

    /// A change that breaks one of the Management API's rules.
    static let breaks: [(String, @Sendable (inout ImportedUser) -> Void)] = [
        ("not an email address", { $0.profile.email = "ada" }),
        ("user_handle", { $0.userHandle = [] }),
        ("user_handle", { $0.userHandle = Array(repeating: 1, count: 65) }),
        ("key_id", { $0.credentialID = [] }),
        ("not a COSE_Key", { $0.publicKey = [0xA1, 0x01] }),
        // A well-formed key of an algorithm the tenant does not offer (EdDSA, ES256, RS256).
        (
            "algorithm",
            { $0.publicKey = COSEKey(algorithm: .ps256, parameters: .rsa(n: rsaModulus, e: [1, 0, 1])).bytes }
        ),
        ("credential_backed_up", { ($0.backupEligible, $0.backedUp) = (false, true) }),
    ]

    static let rsaModulus = [0xC1] + SecureRandom.bytes(255)

    @Test(arguments: breaks.indices)
    func aBrokenUserIsRefusedByItsIndexAndNothingStored(_ index: Int) async throws {
        let harness = try await TenantHarness()
        let good = try await Self.imported("grace@example.com")
        var broken = try await Self.imported("ada@example.com").user
        Self.breaks[index].1(&broken)
        let error = await #expect(throws: TenantError.self) {
            _ = try await harness.tenant.importUsers([good.user, broken])
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.detail.hasPrefix("users[1]: ") == true, "\(String(describing: error))")
        #expect(error?.detail.contains(Self.breaks[index].0) == true, "\(String(describing: error))")
        #expect(try await Self.stored(harness, "grace@example.com").isEmpty)
    }
}
