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
        let configuration = Self.limits(perUser: 3, perAddress: 1000)
        let harness = try await TenantHarness(configuration: configuration)
        let (failures, locked, later) = try await harness.router { http in
            _ = try await harness.signUp(http)
            var failures: [HTTPResult] = []
            for _ in 0..<3 { failures.append(try await Self.badLogin(harness, http)) }
            let (session, response) = try await harness.loginResponse(http)
            let locked = try await harness.grant(
                http, session: session, response: response)
            harness.clock.advance(by: 61)
            return (failures, locked, try await harness.logIn(http))
        }
        #expect(failures.allSatisfy { $0.errorCode == "invalid_grant" })
        expectRefused(locked, "too_many_attempts", status: .tooManyRequests)
        #expect(Int(locked.headers[.retryAfter] ?? "") ?? 0 > 0)
        #expect(later.idToken != nil)
    }

    @Test func repeatedBadRequestsLockTheAddressOut() async throws {
        let configuration = Self.limits(perUser: 1000, perAddress: 2)
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

    /// `Retry-After` counts from the oldest failure in the window.
    @Test func theWaitCountsFromTheOldestFailure() async throws {
        let configuration = Self.limits(perUser: 1000, perAddress: 2)
        let harness = try await TenantHarness(configuration: configuration)
        let (locked, later) = try await harness.router { http in
            _ = try await http.send(.post, "/passkey/challenge", raw: Self.unknownClient)
            harness.clock.advance(by: 15)
            _ = try await http.send(.post, "/passkey/challenge", raw: Self.unknownClient)
            harness.clock.advance(by: 5)
            let locked = try await http.send(.post, "/passkey/challenge", raw: Self.unknownClient)
            harness.clock.advance(by: 40)
            return (locked, try await http.send(.post, "/passkey/challenge", raw: Self.unknownClient))
        }
        #expect(locked.status == .tooManyRequests)
        #expect(locked.headers[.retryAfter] == "40")
        #expect(later.status == .unauthorized)
    }

    /// The failures are in the database: what one instance counts, another on the same database
    /// sees, and refuses an address it never saw fail.
    @Test func failuresAtOneInstanceLockTheAddressOutAtAnother() async throws {
        let instances = try await TwoInstances(configuration: Self.limits(perUser: 1000, perAddress: 2))
        defer { instances.remove() }
        let atA = try await instances.a.router { http in
            [
                try await http.send(.post, "/passkey/challenge", raw: Self.unknownClient),
                try await http.send(.post, "/passkey/challenge", raw: Self.unknownClient),
            ]
        }
        let request = #"{"client_id":"\#(instances.b.clientID)"}"#
        let atB = try await instances.b.router { http in
            try await http.send(.post, "/passkey/challenge", raw: request)
        }
        instances.a.clock.advance(by: 60)
        let later = try await instances.b.router { http in
            try await http.send(.post, "/passkey/challenge", raw: request)
        }
        #expect(atA.map(\.status.code) == [401, 401])
        expectRefused(atB, "too_many_attempts", status: .tooManyRequests)
        #expect(atB.headers[.retryAfter] == "60")
        #expect(later.status == .ok)
    }

    /// A user's failed logins at one instance lock the user out at the other.
    @Test func failuresAtOneInstanceLockTheUserOutAtAnother() async throws {
        let instances = try await TwoInstances(configuration: Self.limits(perUser: 2, perAddress: 1000))
        defer { instances.remove() }
        let (a, b) = (instances.a, instances.b)
        let failures = try await a.router { http in
            _ = try await a.signUp(http)
            var failures: [HTTPResult] = []
            for _ in 0..<2 { failures.append(try await Self.badLogin(a, http)) }
            return failures
        }
        let (locked, later) = try await b.router { http in
            let challenge = try await b.loginChallenge(http)
            let assertion = try await b.device.get(challenge.options, origin: TenantHarness.origin)
            let locked = try await b.grant(http, session: challenge.authSession, response: PasskeyResponse(assertion))
            b.clock.advance(by: 61)
            return (locked, try await b.logIn(http))
        }
        #expect(failures.map(\.errorCode) == ["invalid_grant", "invalid_grant"])
        expectRefused(locked, "too_many_attempts", status: .tooManyRequests)
        #expect(later.idToken != nil)
    }

    static let unknownClient = #"{"client_id":"nobody"}"#

    /// A configuration with these limits in a window of 60 seconds.
    static func limits(perUser: Int, perAddress: Int) -> TenantConfiguration {
        var configuration = TenantConfiguration()
        configuration.attemptLimits = AttemptLimits(perUser: perUser, perAddress: perAddress, window: .seconds(60))
        return configuration
    }

    /// A login of the harness's user whose assertion carries a bad signature.
    static func badLogin(_ harness: TenantHarness, _ http: any TestClientProtocol) async throws -> HTTPResult {
        let challenge = try await harness.loginChallenge(http)
        var assertion = try await harness.device.get(challenge.options, origin: TenantHarness.origin)
        assertion.response.signature = Base64URL([0x30, 0x00])
        return try await harness.grant(http, session: challenge.authSession, response: PasskeyResponse(assertion))
    }
}
