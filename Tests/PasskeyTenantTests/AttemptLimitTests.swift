import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import Testing
import WebAuthn

/// Repeated failures lock a user or an address out with `too_many_attempts` (429) for a while.
@Suite struct AttemptLimitTests {
    @Test func repeatedBadLoginsLockTheUserOut() async throws {
        var configuration = TenantConfiguration()
        configuration.attemptLimits = AttemptLimits(perUser: 3, perAddress: 1000, window: .seconds(60))
        let harness = try await TenantHarness(configuration: configuration)
        let (failures, locked, later) = try await harness.router { http in
            _ = try await harness.signUp(http)
            var failures: [HTTPResult] = []
            for _ in 0..<3 {
                let challenge = try await harness.loginChallenge(http)
                var assertion = try await harness.device.get(challenge.options, origin: TenantHarness.origin)
                assertion.response.signature = Base64URL([0x30, 0x00])
                failures.append(
                    try await harness.grant(http, session: challenge.authSession, response: PasskeyResponse(assertion)))
            }
            let challenge = try await harness.loginChallenge(http)
            let assertion = try await harness.device.get(challenge.options, origin: TenantHarness.origin)
            let locked = try await harness.grant(
                http, session: challenge.authSession, response: PasskeyResponse(assertion))
            harness.clock.advance(by: 61)
            return (failures, locked, try await harness.logIn(http))
        }
        #expect(failures.allSatisfy { $0.errorCode == "invalid_grant" })
        #expect(locked.status == .tooManyRequests)
        #expect(locked.errorCode == "too_many_attempts")
        #expect(Int(locked.headers[.retryAfter] ?? "") ?? 0 > 0)
        #expect(later.idToken != nil)
    }

    @Test func repeatedBadRequestsLockTheAddressOut() async throws {
        var configuration = TenantConfiguration()
        configuration.attemptLimits = AttemptLimits(perUser: 1000, perAddress: 2, window: .seconds(60))
        let harness = try await TenantHarness(configuration: configuration)
        let results = try await harness.router { http in
            var results: [HTTPResult] = []
            for _ in 0..<3 {
                results.append(try await http.send(.post, "/passkey/challenge", raw: #"{"client_id":"nobody"}"#))
            }
            results.append(
                try await http.send(.post, "/passkey/challenge", raw: #"{"client_id":"\#(harness.clientID)"}"#))
            return results
        }
        #expect(results.map(\.status.code) == [401, 401, 429, 429])
    }
}
