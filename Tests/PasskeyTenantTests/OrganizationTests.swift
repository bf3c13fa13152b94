import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// Organizations at `/passkey/register`, `/passkey/challenge`, the webauthn grant and `/authorize`
/// (auth0-passkey-api.md §17): usage, membership, signup into an organization, the tokens' claims.
@Suite struct OrganizationTests {
    static let acme = TenantOrganization(
        name: "acme", id: "org_Zq81LxQ0aPj3Vt6c", displayName: "Acme", members: ["ada@example.com"])
    static let globex = TenantOrganization(name: "globex", signupEnabled: true)

    /// A harness whose application takes organizations as `usage` says, with Acme and Globex.
    static func harness(
        usage: OrganizationUsage = .allow, _ change: (inout [TenantOrganization]) -> Void = { _ in },
        database: String? = nil
    ) async throws -> TenantHarness {
        var configuration = TenantConfiguration()
        configuration.organizations = [acme, globex]
        change(&configuration.organizations)
        configuration.organizationUsage = usage
        return try await TenantHarness(configuration: configuration, database: database)
    }

    // MARK: Ceremonies with an organization

    func register(
        _ harness: TenantHarness, _ http: any TestClientProtocol, email: String, organization: String?
    ) async throws -> HTTPResult {
        try await http.send(
            .post, "/passkey/register",
            json: SignupChallengeRequest(
                clientID: harness.clientID, userProfile: UserProfile(email: email), organization: organization))
    }

    func challenge(_ harness: TenantHarness, _ http: any TestClientProtocol, organization: String?) async throws
        -> HTTPResult
    {
        try await http.send(
            .post, "/passkey/challenge",
            json: LoginChallengeRequest(clientID: harness.clientID, organization: organization))
    }

    func grant(
        _ harness: TenantHarness, _ http: any TestClientProtocol, session: Secret, response: PasskeyResponse,
        organization: String?
    ) async throws -> HTTPResult {
        try await http.send(
            .post, "/oauth/token",
            json: TokenRequest(
                grantType: TokenRequest.webAuthnGrant, clientID: harness.clientID, authSession: session,
                authnResponse: response, scope: "openid profile email offline_access", organization: organization))
    }

    /// Signs `email` up, into `organization` when given, with `device`.
    func signUp(
        _ harness: TenantHarness, _ http: any TestClientProtocol, email: String, organization: String? = nil,
        device: WebAuthnClient
    ) async throws -> HTTPResult {
        let opened = try await register(harness, http, email: email, organization: organization)
        guard opened.status == .ok else { return opened }
        let challenge = try opened.decode(CreationChallengeResponse.self)
        let registration = try await device.create(challenge.options, origin: TenantHarness.origin)
        return try await grant(
            harness, http, session: challenge.authSession, response: PasskeyResponse(registration),
            organization: organization)
    }

    /// Logs `device`'s passkey in, challenge with `organization`, grant with `grantOrganization`.
    func logIn(
        _ harness: TenantHarness, _ http: any TestClientProtocol, organization: String?,
        grantOrganization: String?? = .none, device: WebAuthnClient
    ) async throws -> HTTPResult {
        let opened = try await challenge(harness, http, organization: organization)
        guard opened.status == .ok else { return opened }
        let challenge = try opened.decode(RequestChallengeResponse.self)
        let assertion = try await device.get(challenge.options, origin: TenantHarness.origin)
        return try await grant(
            harness, http, session: challenge.authSession, response: PasskeyResponse(assertion),
            organization: grantOrganization ?? organization)
    }

    // MARK: Members and non-members

    @Test(arguments: ["org_Zq81LxQ0aPj3Vt6c", "acme", "ACME"])
    func aMemberLogsInAndBothTokensNameTheOrganization(organization: String) async throws {
        let harness = try await Self.harness()
        let (login, refreshed) = try await harness.router { http in
            #expect(try await signUp(harness, http, email: "ada@example.com", device: harness.device).status == .ok)
            let login = try await logIn(harness, http, organization: organization, device: harness.device)
            let refreshToken = try login.decode(TokenResponse.self).refreshToken
            return (login, try await harness.refresh(http, try #require(refreshToken)))
        }
        #expect(login.status == .ok, "\(login.text)")
        #expect(refreshed.status == .ok, "\(refreshed.text)")
        for tokens in [try login.decode(TokenResponse.self), try refreshed.decode(TokenResponse.self)] {
            for token in [tokens.idToken, tokens.accessToken] {
                let claims = try jwtClaims(token)
                #expect(claims["org_id"] == .string("org_Zq81LxQ0aPj3Vt6c"))
                #expect(claims["org_name"] == .string("acme"))
            }
        }
    }

    @Test func aLoginWithoutOrganizationCarriesNoOrgClaims() async throws {
        let harness = try await Self.harness()
        let tokens = try await harness.router { http in
            _ = try await signUp(harness, http, email: "ada@example.com", device: harness.device)
            return try await logIn(harness, http, organization: nil, device: harness.device)
        }
        let claims = try jwtClaims(try tokens.decode(TokenResponse.self).idToken)
        #expect(claims["org_id"] == nil && claims["org_name"] == nil)
    }

    @Test func aNonMemberIsRefusedAtTheGrant() async throws {
        let harness = try await Self.harness()
        let (signup, login) = try await harness.router { http in
            let signup = try await signUp(harness, http, email: "bob@example.com", device: harness.device)
            return (signup, try await logIn(harness, http, organization: "acme", device: harness.device))
        }
        let user = try #require(try jwtClaims(try signup.decode(TokenResponse.self).idToken)["sub"]?.stringValue)
        expectRefused(login, "access_denied", status: .forbidden)
        #expect(
            login.json["error_description"]?.stringValue
                == "user \(user) is not part of the org_Zq81LxQ0aPj3Vt6c organization")
    }

    @Test func aMemberListedByUserIDIsLetIn() async throws {
        let directory = try TemporaryDirectory(prefix: "orgs")
        defer { directory.remove() }
        let path = directory.appending("tenant.sqlite")
        let first = try await Self.harness(database: path)
        let device = TenantHarness.device()
        let signup = try await first.router { http in
            try await signUp(first, http, email: "carol@example.com", device: device)
        }
        let user = try #require(try jwtClaims(try signup.decode(TokenResponse.self).idToken)["sub"]?.stringValue)
        let listed = try await Self.harness({ $0[0].members = [user] }, database: path)
        let login = try await listed.router { http in
            try await logIn(listed, http, organization: "acme", device: device)
        }
        #expect(login.status == .ok, "\(login.text)")
    }

    @Test func membershipAssignedAtLoginSurvivesARestart() async throws {
        let directory = try TemporaryDirectory(prefix: "orgs")
        defer { directory.remove() }
        let path = directory.appending("tenant.sqlite")
        let assigning = try await Self.harness({ $0[0].assignMembershipOnLogin = true }, database: path)
        let device = TenantHarness.device()
        let first = try await assigning.router { http in
            _ = try await signUp(assigning, http, email: "bob@example.com", device: device)
            return try await logIn(assigning, http, organization: "acme", device: device)
        }
        #expect(first.status == .ok, "\(first.text)")

        let strict = try await Self.harness(database: path)
        let (again, other) = try await strict.router { http in
            (
                try await logIn(strict, http, organization: "acme", device: device),
                try await logIn(strict, http, organization: "globex", device: device)
            )
        }
        #expect(again.status == .ok, "\(again.text)")
        #expect(other.status == .forbidden)
    }

    // MARK: Usage

    @Test func requireRefusesEveryStepWithoutAnOrganization() async throws {
        let harness = try await Self.harness(usage: .require)
        let results = try await harness.router { http in
            _ = try await signUp(
                harness, http, email: "ada@example.com", organization: "globex", device: harness.device)
            let register = try await register(harness, http, email: "new@example.com", organization: nil)
            let challenge = try await challenge(harness, http, organization: nil)
            let opened = try await self.challenge(harness, http, organization: "acme")
            let session = try opened.decode(RequestChallengeResponse.self)
            let grant = try await grant(
                harness, http, session: session.authSession,
                response: PasskeyResponse(
                    try await harness.device.get(session.options, origin: TenantHarness.origin)),
                organization: nil)
            return [register, challenge, grant]
        }
        for result in results {
            expectRefused(result, "invalid_request", status: .badRequest)
            #expect(
                result.json["error_description"]?.stringValue == "parameter organization is required for this client")
        }
    }

    @Test func requireTakesAMemberWithTheOrganization() async throws {
        let harness = try await Self.harness(usage: .require)
        let result = try await harness.router { http in
            try await signUp(harness, http, email: "ada@example.com", organization: "globex", device: harness.device)
        }
        #expect(result.status == .ok, "\(result.text)")
        #expect(try jwtClaims(try result.decode(TokenResponse.self).idToken)["org_name"] == .string("globex"))
    }

    @Test func denyRefusesAnOrganization() async throws {
        let harness = try await Self.harness(usage: .deny)
        let results = try await harness.router { http in
            [
                try await register(harness, http, email: "ada@example.com", organization: "acme"),
                try await challenge(harness, http, organization: "acme"),
            ]
        }
        for result in results {
            #expect(result.status == .badRequest)
            #expect(result.json["error_description"]?.stringValue == "organization is not allowed for this client")
        }
    }

    @Test func anUnknownOrganizationIsRefused() async throws {
        let harness = try await Self.harness()
        let results = try await harness.router { http in
            [
                try await register(harness, http, email: "ada@example.com", organization: "initech"),
                try await challenge(harness, http, organization: "org_Unknown0000000"),
            ]
        }
        for result in results {
            expectRefused(result, "invalid_request", status: .badRequest)
            #expect(result.json["error_description"]?.stringValue == "invalid organization")
        }
    }

    // MARK: Signup into an organization

    @Test func signupIntoAnOrganizationMakesAMember() async throws {
        let harness = try await Self.harness()
        let (signup, login) = try await harness.router { http in
            let signup = try await signUp(
                harness, http, email: "dan@example.com", organization: "globex", device: harness.device)
            return (signup, try await logIn(harness, http, organization: "globex", device: harness.device))
        }
        #expect(signup.status == .ok, "\(signup.text)")
        #expect(login.status == .ok, "\(login.text)")
        let claims = try jwtClaims(try login.decode(TokenResponse.self).accessToken)
        #expect(claims["org_id"] == .string(Self.globex.id))
    }

    @Test func signupIntoAnOrganizationWithoutSignupIsRefused() async throws {
        let harness = try await Self.harness()
        let result = try await harness.router { http in
            try await register(harness, http, email: "eve@example.com", organization: "acme")
        }
        expectRefused(result, "access_denied", status: .forbidden)
        #expect(result.json["error_description"]?.stringValue == "signup is not allowed for this organization")
    }

    // MARK: Another organization's session

    @Test func anotherOrganizationsSessionIsRefusedAtTheGrant() async throws {
        let harness = try await Self.harness()
        let (login, signup) = try await harness.router { http in
            _ = try await signUp(harness, http, email: "ada@example.com", device: harness.device)
            let login = try await logIn(
                harness, http, organization: "acme", grantOrganization: "globex", device: harness.device)
            let opened = try await register(harness, http, email: "new@example.com", organization: "globex")
            let challenge = try opened.decode(CreationChallengeResponse.self)
            let registration = try await TenantHarness.device().create(challenge.options, origin: TenantHarness.origin)
            let signup = try await grant(
                harness, http, session: challenge.authSession, response: PasskeyResponse(registration),
                organization: "acme")
            return (login, signup)
        }
        for result in [login, signup] {
            expectRefused(result, "invalid_grant", status: .badRequest)
        }
    }

    @Test func theGrantMayNameTheOrganizationByIDOrName() async throws {
        let harness = try await Self.harness()
        let login = try await harness.router { http in
            _ = try await signUp(harness, http, email: "ada@example.com", device: harness.device)
            return try await logIn(
                harness, http, organization: "acme", grantOrganization: "org_Zq81LxQ0aPj3Vt6c", device: harness.device)
        }
        #expect(login.status == .ok, "\(login.text)")
    }

    // MARK: Web Auth

    @Test func authorizeRefusesWithAuth0sErrors() async throws {
        let required = try await Self.harness(usage: .require)
        let denied = try await Self.harness(usage: .deny)
        let missing = try await required.router { http in try await WebAuthFlow(required).authorize(http) }
        let unknown = try await required.router { http in
            try await WebAuthFlow(required).authorize(http, ["organization": "initech"])
        }
        let refused = try await denied.router { http in
            try await WebAuthFlow(denied).authorize(http, ["organization": "acme"])
        }
        let flow = WebAuthFlow(required)
        for (result, description) in [
            (missing, "parameter organization is required for this client"), (unknown, "invalid organization"),
            (refused, "organization is not allowed for this client"),
        ] {
            let query = try flow.callbackQuery(try #require(result.location, "\(result.text)"))
            #expect(query["error"] == "invalid_request")
            #expect(query["error_description"] == description)
            #expect(query["state"] == flow.state)
        }
    }

    @Test func theLoginPageRefusesANonMemberAndLetsAMemberIn() async throws {
        let harness = try await Self.harness()
        let flow = WebAuthFlow(harness)
        let (refused, overSession, member) = try await harness.router { http in
            let (_, session) = try await flow.signUpForCode(http, email: "bob@example.com")
            let page = try flow.page(try await flow.authorize(http, ["organization": "acme", "prompt": "login"]))
            let refused = try await flow.logIn(http, page)
            let overSession = try await flow.authorize(http, ["organization": "acme"], session: session)
            let (code, _) = try await flow.signUpForCode(
                http, ["organization": "globex", "screen_hint": "signup"], email: "dan@example.com")
            return (refused, overSession, try await flow.exchange(http, code: code))
        }
        let redirect = try refused.decode(PageVerifyResponse.self).redirect.text
        let query = try flow.callbackQuery(redirect)
        #expect(query["error"] == "access_denied")
        #expect(query["error_description"]?.hasSuffix("is not part of the org_Zq81LxQ0aPj3Vt6c organization") == true)
        #expect(query["code"] == nil)
        #expect(try flow.callbackQuery(try #require(overSession.location))["error"] == "access_denied")
        #expect(member.status == .ok, "\(member.text)")
        #expect(try jwtClaims(try member.decode(TokenResponse.self).idToken)["org_name"] == .string("globex"))
    }

    @Test func theLoginPageRefusesSignupIntoAnOrganizationWithoutSignup() async throws {
        let harness = try await Self.harness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http, ["organization": "acme"]))
            return try await flow.options(http, page, mode: "signup", identifier: "eve@example.com")
        }
        expectRefused(result, "access_denied", status: .forbidden)
    }

    // MARK: IDs

    @Test func aDerivedIDIsStableAndShapedLikeAuth0s() {
        let id = TenantOrganization(name: "Acme").id
        #expect(id == TenantOrganization(name: "acme").id)
        #expect(id != TenantOrganization(name: "globex").id)
        #expect(id.hasPrefix("org_") && id.count == 20)
        #expect(id.dropFirst(4).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }
}
