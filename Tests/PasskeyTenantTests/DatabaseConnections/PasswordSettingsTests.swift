import Foundation
import HTTPTypes
import HummingbirdTesting
import InMemoryLogging
import TestSupport
import Testing
import WebAuthn

@testable import PasskeyTenant

/// The pieces of the database connection's passwords (issue 41): the hash's form, the
/// configuration file's keys, and logs that carry no password.
@Suite struct PasswordSettingsTests {
    @Test func theHashCarriesItsParametersAndNeverPrints() async throws {
        let hash = try await PasswordHash.make(Secret("Correct-Horse-9"), logN: 10)
        #expect(hash.encoded.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(hash.encoded.split(separator: "$").count == 4)
        #expect(try await hash.verifies(Secret("Correct-Horse-9")))
        #expect(try await !hash.verifies(Secret("correct-horse-9")))
        #expect(try await hash != PasswordHash.make(Secret("Correct-Horse-9"), logN: 10))
        #expect("\(hash)" == "<redacted>")
        var dumped = ""
        dump(hash, to: &dumped)
        #expect(!dumped.contains("scrypt"))
        await #expect(throws: TenantError.self) {
            try await PasswordHash(encoded: "$scrypt$ln=40,r=8,p=1$AA$AA").verifies(Secret("x"))
        }
    }

    /// scrypt runs off the concurrency pool: while more hashes than the pool has threads are
    /// running, a task on the pool still wakes from a short sleep before any of them ends.
    @Test func hashingLeavesTheConcurrencyPoolFree() async throws {
        let finished = Finished()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    _ = try await PasswordHash.make(Secret("Correct-Horse-9"), logN: 15)
                    await finished.add("hash")
                }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(5))
                await finished.add("sleeper")
            }
            try await group.waitForAll()
        }
        #expect(await finished.order.first == "sleeper")
    }

    @Test func theFileSetsThePolicyAndBotDetection() throws {
        var configuration = TenantConfiguration()
        try configuration.apply(
            configurationFile: Array(
                #"{"password_policy": "fair", "bot_detection": "always", "captcha_answer": "ok"}"#.utf8))
        #expect(configuration.databaseConnection.passwordPolicy == .fair)
        #expect(configuration.databaseConnection.botDetection == .always)
        #expect(configuration.databaseConnection.captchaAnswer == Secret("ok"))
        let malformed = [
            (#"{"password_policy": "weak"}"#, "password_policy:"), (#"{"bot_detection": 1}"#, "bot_detection:"),
        ]
        for (file, key) in malformed {
            var configuration = TenantConfiguration()
            let error = #expect(throws: TenantError.self) {
                try configuration.apply(configurationFile: Array(file.utf8))
            }
            #expect(error?.detail.hasPrefix(key) == true, "\(error?.detail ?? "")")
        }
    }

    @Test func tracedPasswordCallsLogNoPassword() async throws {
        let (harness, logs) = try await SecretRedactionTests.tracedHarness()
        let tokens = try await harness.router { http in
            _ = try await harness.passwordSignup(http)
            _ = try await harness.passwordLogin(http, password: "Wrong-Horse-9")
            _ = try await harness.passwordSignup(http, email: "weak@example.com", password: "weak-secret")
            _ = try await http.send(
                .post, "/dbconnections/change_password",
                json: [
                    "client_id": harness.clientID, "email": "ada@example.com",
                    "connection": harness.tenant.configuration.connection,
                ])
            return try await harness.passwordLogin(http).decode(TokenResponse.self)
        }
        let text = logs.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(logs.entries.count >= 5)
        for secret in [TenantHarness.strongPassword, "Wrong-Horse-9", "weak-secret", tokens.accessToken.text] {
            #expect(!text.contains(secret))
        }
        #expect(!text.contains("lo/reset?ticket="))
    }
}

/// The order in which concurrent tasks finished.
private actor Finished {
    private(set) var order: [String] = []
    func add(_ name: String) { order.append(name) }
}
