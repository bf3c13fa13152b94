import Auth0Passkeys
import Foundation
import PasskeyControl
import Synchronization
import TestSupport
import Testing
import WebAuthn

/// 100 clients on one server for 30 seconds (`PASSKEY_LOAD_SECONDS` to change it): every
/// credential made is still there, and no counter value is ever used twice. What is checked is
/// correctness, not latency: 100 requests queue behind one another on 2 shared cores, so each
/// exchange may take up to 5 minutes (30 seconds was once too short under the whole suite's load).
@Suite struct ControlLoadTests {
    @Test func aHundredClientsLoseNoCredentialAndNeverReuseACounter() async throws {
        let seconds = Double(ProcessInfo.processInfo.environment["PASSKEY_LOAD_SECONDS"] ?? "") ?? 30
        try await withControlServer(timeout: .seconds(300)) { client in
            let session = try await client.newSession()
            let authenticator = try await client.addAuthenticator(session, #"{"softpasskey:profile":"security-key"}"#)
            let path = "/session/\(session)/webauthn/authenticator/\(authenticator)"
            let deadline = ContinuousClock.now + .seconds(seconds)
            let results = try await withThrowingTaskGroup(of: ClientRun.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        try await Self.run(client: client, path: path, index: index, until: deadline)
                    }
                }
                return try await group.reduce(into: [ClientRun]()) { $0.append($1) }
            }
            let made = Set(results.flatMap(\.credentials))
            let listed = try #require(try await client.send(.get, path + "/credentials").value?.arrayValue)
            #expect(Set(listed.compactMap { $0["credentialId"]?.stringValue }) == made)
            var counters: [String: [UInt32]] = [:]
            for run in results {
                for (id, count) in run.counters { counters[id, default: []].append(count) }
            }
            for (id, values) in counters {
                #expect(Set(values).count == values.count, "credential \(id) reused a counter")
            }
            #expect(results.allSatisfy { $0.failures.isEmpty }, "\(results.flatMap(\.failures).prefix(3))")
            #expect(results.map(\.counters.count).reduce(0, +) >= 200)
        }
    }

    /// What one client did.
    struct ClientRun: Sendable {
        var credentials: [String] = []
        var counters: [(String, UInt32)] = []
        var failures: [String] = []
    }

    /// One client: makes a discoverable credential, then signs alternately with it and with
    /// whichever is newest (shared by every client, so its counter is contended), until `deadline`.
    static func run(client: ControlClient, path: String, index: Int, until deadline: ContinuousClock.Instant)
        async throws -> ClientRun
    {
        var run = ClientRun()
        let created = try await client.send(
            .post, path + "/create",
            #"{"origin":"https://example.com","options":\#(creationOptions(user: "user" + String(index)))}"#
        )
        guard created.status == 200 else {
            run.failures.append(created.text)
            return run
        }
        let id = try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: created.valueBytes).id
        run.credentials.append(id)
        var round = 0
        // Until the deadline, and at least two rounds each however loaded the machine is.
        while ContinuousClock.now < deadline || round < 2 {
            round += 1
            let target = round % 2 == 0 ? id : nil
            let options = requestOptions(challenge: SecureRandom.bytes(16), allow: target.map { [$0] } ?? [])
            let answer = try await client.send(
                .post, path + "/get", #"{"origin":"https://example.com","options":\#(options)}"#)
            guard answer.status == 200 else {
                run.failures.append(answer.text)
                continue
            }
            let response = try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: answer.valueBytes)
            let data = try AuthenticatorData(bytes: response.response.authenticatorData.bytes)
            run.counters.append((response.id, data.signCount))
        }
        return run
    }
}
