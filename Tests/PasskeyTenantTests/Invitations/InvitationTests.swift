import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WebAuthn

@testable import PasskeyTenant

/// Organization invitations: the Management API creates, lists, reads and deletes them; the link
/// goes to the outbox; `/authorize?invitation=&organization=` opens the signup for the invitee,
/// whose signup makes them a member and uses the invitation up; and each refusal.
@Suite struct InvitationTests {
    static let acme = TenantOrganization(name: "acme", displayName: "Acme")
    static let globex = TenantOrganization(name: "globex")

    private static func harness() async throws -> TenantHarness {
        var configuration = TenantConfiguration()
        configuration.organizations = [acme, globex]
        configuration.organizationUsage = .allow
        return try await TenantHarness(configuration: configuration)
    }

    /// `POST /api/v2/organizations/{id}/invitations` for `email`.
    private static func invite(
        _ harness: TenantHarness, _ http: any TestClientProtocol, email: String = "grace@example.com",
        organization: String = acme.id, extra: [String: JSONValue] = [:], token: String? = nil
    ) async throws -> HTTPResult {
        var body: [String: JSONValue] = [
            "inviter": .object(["name": .string("Ada")]), "invitee": .object(["email": .string(email)]),
            "client_id": .string(harness.clientID),
        ]
        body.merge(extra) { $1 }
        let bearer = if let token { token } else { try await harness.managementToken(http) }
        return try await http.send(
            .post, "/api/v2/organizations/\(organization)/invitations", json: body, bearer: bearer)
    }

    /// The `/authorize` changes of an invitation's link: its `invitation` and `organization`.
    private static func linkParameters(_ invitation: HTTPResult) throws -> [String: String?] {
        let url = try #require(invitation.json["invitation_url"]?.stringValue)
        let items = try #require(URLComponents(string: url)?.queryItems)
        let value = { (name: String) in items.first { $0.name == name }?.value }
        #expect(value("organization_name") == "acme")
        return ["invitation": value("invitation"), "organization": value("organization")]
    }

    @Test func anInviteeSignsUpAndBecomesAMemberOnce() async throws {
        let harness = try await Self.harness()
        let flow = WebAuthFlow(harness)
        let (created, listed, read, page, tokens, after, again) = try await harness.router { http in
            let created = try await Self.invite(harness, http, extra: ["roles": .array([.string("rol_1")])])
            let id = try #require(created.json["id"]?.stringValue)
            let token = try await harness.managementToken(http)
            let listed = try await http.send(
                .get, "/api/v2/organizations/\(Self.acme.id)/invitations?include_totals=true", bearer: token)
            let read = try await http.send(
                .get, "/api/v2/organizations/\(Self.acme.id)/invitations/\(id)", bearer: token)
            let link = try Self.linkParameters(created)
            let opened = try await flow.authorize(http, link)
            let page = try flow.page(opened)
            let verified = try await flow.signUp(http, page, email: "grace@example.com")
            let (code, _) = try flow.codeAndSession(verified)
            let tokens = try await flow.exchange(http, code: code).decode(TokenResponse.self)
            let after = try await http.send(.get, "/api/v2/organizations/\(Self.acme.id)/invitations", bearer: token)
            return (created, listed, read, opened, tokens, after, try await flow.authorize(http, link))
        }
        #expect(created.status == .created, "\(created.text)")
        #expect(created.json["id"]?.stringValue?.hasPrefix("uinv_") == true)
        #expect(created.json["organization_id"] == .string(Self.acme.id))
        #expect(created.json["invitee"] == .object(["email": .string("grace@example.com")]))
        #expect(created.json["inviter"] == .object(["name": .string("Ada")]))
        #expect(created.json["roles"] == .array([.string("rol_1")]))
        #expect(created.json["expiry"] == nil)
        let ticket = try #require(created.json["ticket_id"]?.stringValue)
        #expect(created.json["invitation_url"]?.stringValue?.contains("invitation=\(ticket)") == true)
        let outbox = try await harness.tenant.services.outbox(to: "grace@example.com")
        #expect(outbox.map(\.kind) == [.invitation])
        #expect(outbox.first?.link == created.json["invitation_url"]?.stringValue)
        #expect(listed.json["invitations"] == .array([.object(created.json)]))
        #expect(listed.json["start"] == .number(0) && listed.json["limit"] == .number(50))
        #expect(read.json == created.json)
        // The page opens on signup, for the invitee.
        #expect(page.text.contains(#"data-screen="signup""#))
        #expect(page.text.contains(#"value="grace@example.com""#))
        #expect(try jwtClaims(tokens.idToken)["org_id"] == .string(Self.acme.id))
        #expect(try after.decode([JSONValue].self).isEmpty)
        // Used once: the link no longer opens a signup.
        #expect(try flow.callbackQuery(try #require(again.location))["error"] == "invalid_request")
    }

    @Test func anExpiredInvitationIsRefused() async throws {
        let harness = try await Self.harness()
        let flow = WebAuthFlow(harness)
        let refused = try await harness.router { http in
            let created = try await Self.invite(harness, http, extra: ["ttl_sec": .number(60)])
            harness.clock.advance(by: 61)
            return try await flow.authorize(http, try Self.linkParameters(created))
        }
        let query = try flow.callbackQuery(try #require(refused.location))
        #expect(query["error"] == "invalid_request")
        #expect(query["error_description"]?.contains("expired") == true)
    }

    @Test func anotherOrganizationsLinkIsRefused() async throws {
        let harness = try await Self.harness()
        let flow = WebAuthFlow(harness)
        let (mismatch, missing) = try await harness.router { http in
            var link = try Self.linkParameters(try await Self.invite(harness, http))
            let ticket = link["invitation"] ?? nil
            link["organization"] = Self.globex.id
            return (
                try await flow.authorize(http, link),
                try await flow.authorize(http, ["invitation": ticket])
            )
        }
        for result in [mismatch, missing] {
            #expect(try flow.callbackQuery(try #require(result.location))["error"] == "invalid_request")
        }
    }

    /// With a passkey or with a password on the page: another email is refused, and the invitee
    /// who signs up with a password becomes a member.
    @Test func onlyTheInviteeSignsUp() async throws {
        let harness = try await Self.harness()
        let flow = WebAuthFlow(harness)
        let (other, invitee, otherPassword, tokens) = try await harness.router { http in
            let link = try Self.linkParameters(try await Self.invite(harness, http))
            let page = try flow.page(try await flow.authorize(http, link))
            let other = try await flow.options(http, page, mode: "signup", identifier: "eve@example.com")
            let invitee = try await flow.options(http, page, mode: "signup", identifier: "Grace@Example.com")
            let otherPassword = try await PasswordPageTests.password(
                http, flow, page, mode: "signup", identifier: "eve@example.com")
            let (code, _) = try flow.codeAndSession(
                try await PasswordPageTests.password(http, flow, page, mode: "signup", identifier: "grace@example.com"))
            return (other, invitee, otherPassword, try await flow.exchange(http, code: code).decode(TokenResponse.self))
        }
        expectRefused(other, "access_denied", status: .forbidden)
        #expect(invitee.status == .ok, "\(invitee.text)")
        expectRefused(otherPassword, "access_denied", status: .forbidden)
        #expect(try jwtClaims(tokens.idToken)["org_id"] == .string(Self.acme.id))
    }

    @Test func aDeletedInvitationIsGone() async throws {
        let harness = try await Self.harness()
        let flow = WebAuthFlow(harness)
        let (deleted, read, opened) = try await harness.router { http in
            let created = try await Self.invite(harness, http)
            let path =
                "/api/v2/organizations/\(Self.acme.id)/invitations/\(try #require(created.json["id"]?.stringValue))"
            let token = try await harness.managementToken(http)
            return (
                try await http.send(.delete, path, bearer: token), try await http.send(.get, path, bearer: token),
                try await flow.authorize(http, try Self.linkParameters(created))
            )
        }
        #expect(deleted.status == .noContent)
        expectManagementError(read, .notFound, "not_found")
        #expect(try flow.callbackQuery(try #require(opened.location))["error"] == "invalid_request")
    }

    @Test func theManagementAPIRefusesBadRequests() async throws {
        let harness = try await Self.harness()
        let (unknown, member, ttl, client, scope, quiet) = try await harness.router { http in
            let readOnly = try await harness.managementToken(http, scope: "read:organization_invitations")
            return (
                try await Self.invite(harness, http, organization: "org_nope"),
                try await Self.invite(harness, http, extra: ["password": .string("x")]),
                try await Self.invite(harness, http, extra: ["ttl_sec": .number(2_592_001)]),
                try await Self.invite(harness, http, extra: ["client_id": .string("nobody")]),
                try await Self.invite(harness, http, token: readOnly),
                try await Self.invite(
                    harness, http, email: "quiet@example.com", extra: ["send_invitation_email": .bool(false)])
            )
        }
        expectManagementError(unknown, .notFound, "inexistent_organization")
        for result in [member, ttl, client] {
            expectManagementError(result, .badRequest, "invalid_body")
        }
        expectManagementError(scope, .forbidden, "insufficient_scope")
        #expect(quiet.status == .created)
        #expect(try await harness.tenant.services.outbox(to: "quiet@example.com").isEmpty)
    }
}
