import Auth0Passkeys
import FoundationEssentials
import InMemoryLogging
import Logging
import PasskeyAuthenticator
import PasskeyTenant
import Testing
import WebAuthn

/// The Management API client against the local tenant over loopback with the real `CurlTransport`
/// (auth0-passkey-api.md §15): a machine-to-machine token, a user created and found, a passkey
/// made by the software authenticator attached and then used to log in natively, the refusals.
@Suite struct ManagementLiveTests {
    /// A Management API client with a `client_credentials` token of the tenant's m2m client.
    private func management(_ live: LiveTenant) async throws -> ManagementAPI {
        let m2m = try Authentication(
            clientId: live.tenant.managementClientID, baseURL: live.baseURL, logger: live.logger)
        let token = try await m2m.clientCredentials(
            clientSecret: ClientSecret(live.tenant.managementClientSecret.text),
            audience: live.tenant.configuration.managementAudience
        ).start()
        #expect(token.tokenType == "Bearer")
        #expect(token.scope.split(separator: " ").contains("create:authentication_methods"))
        return try ManagementAPI(token: token.accessToken, baseURL: live.baseURL, logger: live.logger)
    }

    /// A discoverable passkey for `localhost` with `handle`, made on `authenticator`.
    private func passkey(on authenticator: SoftwareAuthenticator, handle: [UInt8]) async throws -> NewPasskeyMethod {
        let registration = try await ManagementFixtures.registration(on: authenticator, handle: handle)
        return try NewPasskeyMethod(registration: registration, userHandle: handle, relyingPartyIdentifier: "localhost")
    }

    @Test func seedAUserWithAPasskeyThenLogInNatively() async throws {
        try await LiveTenant.run { live in
            let management = try await management(live)
            let user = try await management.users.create(
                NewManagementUser(
                    connection: live.tenant.configuration.connection, email: "Ada@Example.com", emailVerified: true,
                    name: "Ada Lovelace")
            ).start()
            #expect(user.userId.hasPrefix("auth0|"))
            #expect(user.identities.first?.connection == live.tenant.configuration.connection)
            #expect(try await management.users.get(id: user.userId).start() == user)
            #expect(try await management.users.list(byEmail: "ada@example.com").start().map(\.userId) == [user.userId])
            #expect(try await management.users.list(byEmail: "bob@example.com").start().isEmpty)
            #expect(try await management.authenticationMethods.list(ofUser: user.userId).start().isEmpty)

            let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .platform)
            let handle = SecureRandom.bytes(32)
            let passkey = try await passkey(on: authenticator, handle: handle)
            let method = try await management.authenticationMethods.create(passkey, forUser: user.userId).start()
            #expect(method.type == "passkey" && method.id.contains("|"))
            #expect(method.keyId == Base64URL.encode(passkey.credentialID))
            #expect(method.userHandle == Base64URL.encode(handle))
            #expect(method.relyingPartyIdentifier == "localhost")
            #expect(method.credentialDeviceType == "multi_device" && method.credentialBackedUp == true)
            let listed = try await management.authenticationMethods.list(ofUser: user.userId).start()
            #expect(listed.map(\.id) == [method.id])
            #expect(listed.first?.confirmed == true)

            // §2–§3: the seeded passkey logs in with no signup ceremony.
            let challenge = try await live.auth.passkeyLoginChallenge().start()
            let assertion = try await WebAuthnClient(authenticator: authenticator).get(
                challenge.options, origin: try WebOrigin("https://localhost"))
            let login = try await live.auth.login(passkey: try LoginPasskeyResponse(assertion), challenge: challenge)
                .start()
            #expect(try await live.auth.userInfo(withAccessToken: login.accessToken).start().sub == user.userId)

            let duplicate = await #expect(throws: ManagementAPIError.self) {
                try await management.authenticationMethods.create(passkey, forUser: user.userId).start()
            }
            #expect(duplicate?.isConflict == true && duplicate?.statusCode == 409)

            try await management.authenticationMethods.delete(id: method.id, ofUser: user.userId).start()
            #expect(try await management.authenticationMethods.list(ofUser: user.userId).start().isEmpty)
            try await management.users.delete(id: user.userId).start()
            let gone = await #expect(throws: ManagementAPIError.self) {
                try await management.users.get(id: user.userId).start()
            }
            #expect(gone?.isNotFound == true)
            #expect(gone?.error == "Not Found" && !(gone?.message.isEmpty ?? true))
        }
    }

    @Test func theTenantsRefusals() async throws {
        try await LiveTenant.run { live in
            let management = try await management(live)
            let user = try await management.users.create(
                NewManagementUser(connection: live.tenant.configuration.connection, email: "ada@example.com")
            ).start()
            let taken = await #expect(throws: ManagementAPIError.self) {
                try await management.users.create(
                    NewManagementUser(connection: live.tenant.configuration.connection, email: "ada@example.com")
                ).start()
            }
            #expect(taken?.statusCode == 409)
            var notCOSE = try await passkey(
                on: SoftwareAuthenticator(store: InMemoryCredentialStore()), handle: SecureRandom.bytes(16))
            notCOSE.publicKey = Array("not a COSE key".utf8)
            let badKey = await #expect(throws: ManagementAPIError.self) {
                try await management.authenticationMethods.create(notCOSE, forUser: user.userId).start()
            }
            #expect(badKey?.statusCode == 400)
            let noSuchUser = await #expect(throws: ManagementAPIError.self) {
                try await management.authenticationMethods.list(ofUser: "auth0|nobody").start()
            }
            #expect(noSuchUser?.isNotFound == true)

            let wrongSecret = await #expect(throws: AuthenticationError.self) {
                try await Authentication(clientId: live.tenant.managementClientID, baseURL: live.baseURL)
                    .clientCredentials(
                        clientSecret: ClientSecret("wrong"), audience: live.tenant.configuration.managementAudience
                    ).start()
            }
            #expect((400...401).contains(wrongSecret?.statusCode ?? 0))

            // A user's own token is not a Management API token.
            let (_, signup) = try await live.signUp("bob@example.com", device: LiveTenant.device())
            let asUser = try ManagementAPI(token: signup.accessToken, baseURL: live.baseURL)
            let refused = await #expect(throws: ManagementAPIError.self) {
                try await asUser.users.get(id: user.userId).start()
            }
            #expect(refused?.statusCode == 401 || refused?.statusCode == 403)
            let noToken = await #expect(throws: ManagementAPIError.self) {
                try await ManagementAPI(token: "", baseURL: live.baseURL).users.get(id: user.userId).start()
            }
            #expect(noToken?.isInvalidToken == true)
        }
    }

    /// STYLE §5: seeding traced at `.trace` logs neither the client secret nor the Management
    /// token, while the trace carries the redacted bodies.
    @Test func aTracedSeedingLogsNoSecret() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "management-test", factory: { _ in logs })
        logger.logLevel = .trace
        let secrets = try await LiveTenant.run(logger: logger) { live in
            let management = try await management(live)
            let user = try await management.users.create(
                NewManagementUser(connection: live.tenant.configuration.connection, email: "ada@example.com")
            ).start()
            let passkey = try await passkey(
                on: SoftwareAuthenticator(store: InMemoryCredentialStore()), handle: SecureRandom.bytes(32))
            _ = try await management.authenticationMethods.create(passkey, forUser: user.userId).start()
            return [live.tenant.managementClientSecret.text, management.token]
        }
        let text = logs.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(text.contains(#""client_secret":"<redacted>""#) && text.contains("Authorization: <redacted>"))
        #expect(text.contains("/api/v2/users/auth0%7C"))
        #expect(secrets.allSatisfy { $0.count >= 16 })
        for secret in secrets {
            #expect(!text.contains(secret))
        }
    }

    @Test func organizationInvitationsAreCreatedListedReadAndDeleted() async throws {
        var configuration = TenantConfiguration()
        configuration.organizations = [TenantOrganization(name: "acme")]
        try await LiveTenant.run(configuration: configuration) { live in
            let organizations = try await management(live).organizations
            let acme = live.tenant.configuration.organizations[0].id
            let created = try await organizations.createInvitation(
                NewManagementInvitation(
                    inviterName: "Ada", inviteeEmail: "grace@example.com", clientId: live.tenant.clientID, ttlSec: 3600,
                    roles: ["rol_1"]),
                organization: acme
            ).start()
            #expect(created.id.hasPrefix("uinv_") && created.organizationId == acme)
            #expect(created.invitee?.email == "grace@example.com" && created.inviter?.name == "Ada")
            #expect(created.roles == ["rol_1"])
            #expect(created.invitationURL?.contains("invitation=\(created.ticketId ?? "-")") == true)
            #expect(try await organizations.invitations(organization: acme).start().map(\.id) == [created.id])
            #expect(try await organizations.invitation(id: created.id, organization: acme).start() == created)
            try await organizations.deleteInvitation(id: created.id, organization: acme).start()
            let gone = await #expect(throws: ManagementAPIError.self) {
                try await organizations.invitation(id: created.id, organization: acme).start()
            }
            #expect(gone?.isNotFound == true)
            let unknown = await #expect(throws: ManagementAPIError.self) {
                try await organizations.invitations(organization: "org_nobody").start()
            }
            #expect(unknown?.isNotFound == true)
        }
    }
}
