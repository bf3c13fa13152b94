import Foundation
import HTTPTypes
import HummingbirdTesting
import TestSupport
import Testing
import WebAuthn

@testable import PasskeyTenant

/// `POST /dbconnections/change_password` and the ticket page it sends (issue 41): the same answer
/// for every email, an outbox message for a password user, and a ticket that sets a new password
/// once, before it expires.
@Suite struct PasswordResetTests {
    @Test func everyEmailGetsTheSameAnswerAndOnlyAPasswordUserAMessage() async throws {
        let harness = try await TenantHarness()
        let (answers, passwordUser, passkeyUser, unknown) = try await harness.router { http in
            _ = try await harness.passwordSignup(http)
            _ = try await harness.signUp(http, email: "grace@example.com")
            var answers: [HTTPResult] = []
            for email in ["ada@example.com", "grace@example.com", "nobody@example.com"] {
                answers.append(try await Self.changePassword(harness, http, email: email))
            }
            let services = harness.tenant.services
            return (
                answers, try await services.outbox(to: "ADA@example.com"),
                try await services.outbox(to: "grace@example.com"), try await services.outbox(to: "nobody@example.com")
            )
        }
        for answer in answers {
            #expect(answer.status == .ok)
            #expect(answer.text == "We've just sent you an email to reset your password.")
        }
        #expect(passwordUser.count == 1)
        #expect(passwordUser.first?.kind == .passwordReset)
        #expect(passwordUser.first?.link?.hasPrefix("https://localhost/lo/reset?ticket=") == true)
        #expect(passkeyUser.isEmpty)
        #expect(unknown.isEmpty)
    }

    @Test func theTicketSetsANewPasswordOnce() async throws {
        let harness = try await TenantHarness()
        let (form, reset, again, old, new) = try await harness.router { http in
            _ = try await harness.passwordSignup(http)
            let ticket = try await Self.ticket(harness, http)
            let form = try await http.send(.get, "/lo/reset?ticket=" + ticket, contentType: nil)
            let reset = try await Self.reset(http, ticket: ticket, password: "New-Horse-42")
            let again = try await Self.reset(http, ticket: ticket, password: "Other-Horse-42")
            return (
                form, reset, again, try await harness.passwordLogin(http),
                try await harness.passwordLogin(http, password: "New-Horse-42")
            )
        }
        #expect(form.status == .ok)
        #expect(form.text.contains(#"id="reset-form""#))
        #expect(reset.status == .ok, "\(reset.text)")
        #expect(reset.text.contains("Your password has been changed successfully."))
        #expect(again.status == .badRequest)
        expectRefused(old, "invalid_grant", status: .forbidden)
        #expect(new.status == .ok, "\(new.text)")
    }

    @Test func aWeakPasswordKeepsTheTicketAndAnExpiredTicketIsRefused() async throws {
        let harness = try await TenantHarness()
        let (weak, strong, expired) = try await harness.router { http in
            _ = try await harness.passwordSignup(http)
            let ticket = try await Self.ticket(harness, http)
            let weak = try await Self.reset(http, ticket: ticket, password: "short")
            let strong = try await Self.reset(http, ticket: ticket, password: "New-Horse-42")
            let second = try await Self.ticket(harness, http)
            harness.clock.advance(by: 432_001)
            return (weak, strong, try await Self.reset(http, ticket: second, password: "Late-Horse-42"))
        }
        #expect(weak.status == .badRequest)
        #expect(weak.text.contains("The password is too weak."))
        #expect(strong.status == .ok)
        #expect(expired.status == .badRequest)
        #expect(expired.text.contains("invalid, expired or already used"))
    }

    @Test func badRequestsAreRefused() async throws {
        let harness = try await TenantHarness()
        let (connection, client, page) = try await harness.router { http in
            (
                try await Self.changePassword(harness, http, email: "ada@example.com", connection: "Other"),
                try await http.send(
                    .post, "/dbconnections/change_password",
                    raw: #"{"client_id":"nobody","email":"a@example.com","connection":"c"}"#),
                try await http.send(.get, "/lo/reset?ticket=unknown", contentType: nil)
            )
        }
        expectDatabaseRefusal(connection, "bad.connection")
        expectDatabaseRefusal(client, "invalid_client", status: .unauthorized)
        #expect(page.status == .badRequest)
    }

    static func changePassword(
        _ harness: TenantHarness, _ http: any TestClientProtocol, email: String,
        connection: String = "Username-Password-Authentication"
    ) async throws -> HTTPResult {
        try await http.send(
            .post, "/dbconnections/change_password",
            json: ["client_id": harness.clientID, "email": email, "connection": connection])
    }

    /// The ticket of the newest reset message to ada@example.com, after asking for one.
    static func ticket(_ harness: TenantHarness, _ http: any TestClientProtocol) async throws -> String {
        _ = try await changePassword(harness, http, email: "ada@example.com")
        let link = try #require(try await harness.tenant.services.outbox(to: "ada@example.com").last?.link)
        return try #require(link.split(separator: "ticket=").last.map(String.init))
    }

    static func reset(_ http: any TestClientProtocol, ticket: String, password: String) async throws -> HTTPResult {
        try await http.send(
            .post, "/lo/reset", raw: "ticket=\(ticket)&password=\(password)",
            contentType: "application/x-www-form-urlencoded")
    }
}
