import Foundation
import TestSupport
import Testing
import WebAuthn

@testable import PasskeyTenant

/// The local outbox in the store the tests run on (SQLite, or PostgreSQL in `make postgres-test`):
/// first messages sent at once to one new recipient, the capacity, the expiry, recipients in any
/// case; and the outbox file, one JSON line per message, refused at start when it cannot be written.
@Suite struct OutboxTests {
    func message(to recipient: String, _ index: Int, at time: Date) -> OutboxMessage {
        OutboxMessage(
            id: TenantServices.newMessageID(), to: recipient, channel: .email, kind: .passwordlessCode,
            text: "code \(index)", code: String(format: "%06d", index), link: nil, clientID: nil, createdAt: time)
    }

    @Test func firstMessagesSentAtOnceAreAllKept() async throws {
        let clock = TestClock()
        let tenant = try await TestTenant.open(clock: clock.tenantClock)
        let services = tenant.services
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask { try await services.send(message(to: "ada@example.com", index, at: clock.now)) }
            }
            try await group.waitForAll()
        }
        let kept = try await services.outbox(to: "ada@example.com")
        #expect(Set(kept.compactMap(\.code)) == Set((0..<8).map { String(format: "%06d", $0) }))
        await tenant.close()
    }

    @Test func aMailboxKeepsItsNewestMessagesAndRecipientsInAnyCase() async throws {
        let clock = TestClock()
        let tenant = try await TestTenant.open(clock: clock.tenantClock)
        let services = tenant.services
        for index in 0..<(OutboxMailbox.capacity + 5) {
            let recipient = index.isMultiple(of: 2) ? "Ada@Example.COM" : "ada@example.com"
            try await services.send(message(to: recipient, index, at: clock.now))
        }
        let kept = try await services.outbox(to: "ADA@example.com")
        #expect(kept.count == OutboxMailbox.capacity)
        #expect(kept.first?.code == String(format: "%06d", 5))
        #expect(kept.last?.code == String(format: "%06d", OutboxMailbox.capacity + 4), "newest last")
        #expect(try await services.outbox(to: "bob@example.com").isEmpty)
        await tenant.close()
    }

    @Test func aMailboxExpiresAnHourAfterItsLastMessage() async throws {
        let clock = TestClock()
        let tenant = try await TestTenant.open(clock: clock.tenantClock)
        try await tenant.services.send(message(to: "ada@example.com", 1, at: clock.now))
        clock.advance(by: OutboxMailbox.lifetime - 1)
        try await tenant.services.send(message(to: "ada@example.com", 2, at: clock.now))
        clock.advance(by: OutboxMailbox.lifetime - 1)
        #expect(try await tenant.services.outbox(to: "ada@example.com").count == 2)
        clock.advance(by: 2)
        #expect(try await tenant.services.outbox(to: "ada@example.com").isEmpty)
        await tenant.close()
    }

    @Test func theOutboxFileGetsOneJSONLinePerMessage() async throws {
        let directory = try TemporaryDirectory(prefix: "outbox")
        defer { directory.remove() }
        let path = directory.path + "/outbox.jsonl"
        var configuration = TenantConfiguration()
        configuration.outbox.file = path
        let tenant = try await TestTenant.open(configuration: configuration, database: ":memory:")
        for index in 0..<3 {
            try await tenant.services.send(message(to: "ada@example.com", index, at: Date(timeIntervalSince1970: 0)))
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        let first = try JSONValue(json: Array(lines[0].utf8))
        #expect(first["code"] == "000000" && first["to"] == "ada@example.com")
        #expect(first["created_at"] == "1970-01-01T00:00:00Z")
        #expect(try permissions(path) == 0o600)
    }

    @Test func anUnwritableOutboxFileFailsAtStart() async throws {
        var configuration = TenantConfiguration()
        configuration.outbox.file = "/nonexistent-directory/outbox.jsonl"
        await #expect(throws: TenantError(.invalidConfiguration, "")) {
            _ = try await TestTenant.open(configuration: configuration, database: ":memory:")
        }
    }

    @Test func theConfigurationFileSetsTheOutbox() throws {
        var configuration = TenantConfiguration()
        try configuration.apply(
            configurationFile: Array(#"{"test_outbox": true, "outbox_file": "/tmp/o.jsonl", "otp_lifetime": 60}"#.utf8))
        #expect(
            configuration.outbox
                == OutboxConfiguration(servesTestRoute: true, file: "/tmp/o.jsonl", otpLifetime: .seconds(60)))
        #expect(throws: TenantError(.invalidConfiguration, "")) {
            try configuration.apply(configurationFile: Array(#"{"otp_lifetime": 0}"#.utf8))
        }
    }
}
