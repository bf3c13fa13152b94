import Foundation
import TestSupport
import Testing
import WebAuthn

@testable import PasskeyTenant

/// A seen DPoP proof and a revoked access token are one record type, ``RememberedKey``, kept apart
/// by their tables (`dpop_proofs`, `revoked_tokens`, unchanged): each round-trips through its own
/// table in the store the tests run on (SQLite, or PostgreSQL with `PASSKEY_TEST_POSTGRES`).
@Suite struct RememberedKeyTests {
    func roundTrip<Kind>(_ kind: Kind.Type, key: StoredValue, in store: any TenantStore) async throws
    where Kind: RememberedKind {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let until = now.addingTimeInterval(60)
        #expect(try await store.peek(RememberedKey<Kind>.self, key: key, at: now) == nil)
        #expect(try await store.insert(RememberedKey<Kind>(expiresAt: until), key: key))
        #expect(try await store.peek(RememberedKey<Kind>.self, key: key, at: now)?.expiresAt == until)
        #expect(try await store.peek(RememberedKey<Kind>.self, key: key, at: until.addingTimeInterval(1)) == nil)
    }

    @Test func bothKindsRoundTripThroughTheirOwnTables() async throws {
        let tenant = try await TestTenant.open()
        #expect(SeenProof.table.name == "dpop_proofs" && SeenProof.table.key == "digest")
        #expect(RevokedToken.table.name == "revoked_tokens" && RevokedToken.table.key == "jti")
        try await roundTrip(SeenProofs.self, key: SeenProof.key(thumbprint: "t", jti: "j"), in: tenant.services.store)
        try await roundTrip(RevokedTokens.self, key: .text("j"), in: tenant.services.store)
        await tenant.close()
    }
}
