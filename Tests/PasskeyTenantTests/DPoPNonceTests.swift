import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// The tenant's DPoP nonces (RFC 9449 §8, §9; auth0-passkey-api.md §16.3) when it requires them:
/// any it issued in the last 5 minutes is good, at any instance on its database, however many
/// answers came after it; an expired, forged or altered one gets `use_dpop_nonce` and a fresh one.
@Suite struct DPoPNonceTests {
    static let tokenURL = DPoPProofTests.tokenURL

    static var configuration: TenantConfiguration {
        var configuration = TenantConfiguration()
        configuration.requiresDPoPNonce = true
        return configuration
    }

    /// A nonce `harness` hands out: the `DPoP-Nonce` of its answer to a proof without one.
    static func nonce(_ harness: TenantHarness, _ http: any TestClientProtocol, _ prover: DPoPProver) async throws
        -> String
    {
        let asked = try await harness.dpopSignUp(
            http, proof: prover.proof("POST", tokenURL, iat: harness.clock.now), email: "asker@example.com")
        #expect(asked.errorCode == "use_dpop_nonce")
        return try #require(asked.headers[.dpopNonce])
    }

    /// A signup whose proof carries `nonce`.
    static func signUp(
        _ harness: TenantHarness, _ http: any TestClientProtocol, _ prover: DPoPProver, nonce: String,
        email: String = "ada@example.com"
    ) async throws -> HTTPResult {
        try await harness.dpopSignUp(
            http, proof: prover.proof("POST", tokenURL, iat: harness.clock.now, nonce: nonce), email: email)
    }

    /// A nonce stays good after newer ones went out (the rule before kept the last two only).
    @Test func aNonceStaysGoodAfterNewerOnes() async throws {
        let harness = try await TenantHarness(configuration: Self.configuration)
        let prover = try await DPoPProver()
        let (nonces, answered) = try await harness.router { http in
            var nonces: [String] = []
            for _ in 0..<3 { nonces.append(try await Self.nonce(harness, http, prover)) }
            return (nonces, try await Self.signUp(harness, http, prover, nonce: nonces[0]))
        }
        #expect(Set(nonces).count == 3)
        #expect(answered.status == .ok, "\(answered.text)")
    }

    /// Good for 5 minutes from its answer: a moment before, accepted; at 5 minutes, refused with a
    /// fresh nonce, which the client's retry then carries.
    @Test func aNonceExpiresAfterFiveMinutes() async throws {
        let harness = try await TenantHarness(configuration: Self.configuration)
        let prover = try await DPoPProver()
        let (young, expired, retried) = try await harness.router { http in
            let first = try await Self.nonce(harness, http, prover)
            harness.clock.advance(by: 299)
            let young = try await Self.signUp(harness, http, prover, nonce: first)
            let second = try await Self.nonce(harness, http, prover)
            harness.clock.advance(by: 300)
            let expired = try await Self.signUp(harness, http, prover, nonce: second, email: "bob@example.com")
            let fresh = try #require(expired.headers[.dpopNonce])
            #expect(fresh != second)
            return (
                young, expired, try await Self.signUp(harness, http, prover, nonce: fresh, email: "bob@example.com")
            )
        }
        #expect(young.status == .ok, "\(young.text)")
        expectRefused(expired, "use_dpop_nonce", status: .badRequest)
        #expect(retried.status == .ok, "\(retried.text)")
    }

    /// What is wrong with a nonce the tenant did not issue as it is.
    enum Forgery: String, CaseIterable, CustomStringConvertible {
        case garbage, empty, truncated, tagAltered, issuedAtAltered, padded, ofAnotherDatabase

        var description: String { rawValue }

        /// `nonce` (a good one of the harness's tenant) forged this way.
        func apply(to nonce: String) async throws -> String {
            var bytes = try Base64URL.decode(nonce)
            switch self {
            case .garbage: return "not-the-nonce"
            case .empty: return ""
            case .truncated: return String(nonce.dropLast(4))
            case .tagAltered: bytes[bytes.count - 1] ^= 1
            case .issuedAtAltered: bytes[7] ^= 1
            case .padded: return nonce + "="
            case .ofAnotherDatabase:
                let other = try await TenantHarness(configuration: DPoPNonceTests.configuration)
                let prover = try await DPoPProver()
                return try await other.router { http in try await DPoPNonceTests.nonce(other, http, prover) }
            }
            return Base64URL.encode(bytes)
        }
    }

    @Test(arguments: Forgery.allCases)
    func aForgedNonceIsRefused(_ forgery: Forgery) async throws {
        let harness = try await TenantHarness(configuration: Self.configuration)
        let prover = try await DPoPProver()
        let (forged, refused) = try await harness.router { http in
            let forged = try await forgery.apply(to: try await Self.nonce(harness, http, prover))
            return (forged, try await Self.signUp(harness, http, prover, nonce: forged))
        }
        #expect(refused.status == .badRequest)
        #expect(refused.errorCode == "use_dpop_nonce", "\(refused.text)")
        #expect(refused.headers[.dpopNonce].map { !$0.isEmpty && $0 != forged } == true)
    }

    /// The nonce key is in the database: a nonce one instance hands out is good at another on the
    /// same database, both ways.
    @Test func aNonceOfOneInstanceIsGoodAtAnother() async throws {
        let instances = try await TwoInstances(configuration: Self.configuration)
        defer { instances.remove() }
        let (a, b) = (instances.a, instances.b)
        let prover = try await DPoPProver()
        let fromA = try await a.router { http in try await Self.nonce(a, http, prover) }
        let atB = try await b.router { http in try await Self.signUp(b, http, prover, nonce: fromA) }
        let fromB = try #require(atB.headers[.dpopNonce])
        let atA = try await a.router { http in
            try await Self.signUp(a, http, prover, nonce: fromB, email: "bob@example.com")
        }
        #expect(atB.status == .ok, "\(atB.text)")
        #expect(atA.status == .ok, "\(atA.text)")
    }

    /// An instance whose clock runs ahead hands out nonces from the future: good at the others
    /// within the `iat` skew of 60 seconds, refused beyond it.
    @Test(arguments: [(30.0, true), (120.0, false)])
    func aNonceFromAClockAheadIsGoodWithinTheSkew(_ ahead: Double, _ accepted: Bool) async throws {
        let clock = TestClock(TestClock().now.addingTimeInterval(ahead))
        let instances = try await TwoInstances(configuration: Self.configuration, clockOfB: clock)
        defer { instances.remove() }
        let (a, b) = (instances.a, instances.b)
        let prover = try await DPoPProver()
        let fromB = try await b.router { http in try await Self.nonce(b, http, prover) }
        let atA = try await a.router { http in try await Self.signUp(a, http, prover, nonce: fromB) }
        #expect(atA.errorCode == (accepted ? nil : "use_dpop_nonce"), "\(atA.text)")
        #expect((atA.status == .ok) == accepted)
    }
}
