import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// `POST /passkey/register` and `POST /passkey/challenge` (auth0-passkey-api.md §1, §2, §12.2).
@Suite struct ChallengeEndpointTests {
    @Test func signupChallengeCarriesWhatTheSDKNeeds() async throws {
        var configuration = TenantConfiguration()
        configuration.organizations = [TenantOrganization(name: "acme", id: "org_Zq81", signupEnabled: true)]
        configuration.organizationUsage = .allow
        let harness = try await TenantHarness(configuration: configuration)
        let result = try await harness.router { http in
            try await http.send(
                .post, "/passkey/register",
                raw: #"{"client_id":"\#(harness.clientID)","realm":"Username-Password-Authentication","#
                    + #""user_profile":{"email":"ada@example.com","name":"Ada Example"},"#
                    + #""user_metadata":{"plan":"trial"},"organization":"org_Zq81"}"#)
        }
        #expect(result.status == .ok)
        let options = try #require(result.json["authn_params_public_key"]?.objectValue)
        #expect(result.json["auth_session"]?.stringValue?.isEmpty == false)
        let challenge = try #require(options["challenge"]?.stringValue)
        #expect(try Base64URL(string: challenge).bytes.count == 32)
        #expect(!challenge.contains("="))
        #expect(options["rp"]?.objectValue?["id"]?.stringValue == "localhost")
        let user = try #require(options["user"]?.objectValue)
        #expect(try Base64URL(string: try #require(user["id"]?.stringValue)).bytes.count == 32)
        #expect(user["name"]?.stringValue == "ada@example.com")
        #expect(user["displayName"]?.stringValue == "Ada Example")
        let algorithms = options["pubKeyCredParams"]?.arrayValue?.compactMap { $0.objectValue?["alg"] }
        #expect(algorithms == [.number(-8), .number(-7), .number(-257)])
        #expect(options["authenticatorSelection"]?.objectValue?["residentKey"] == .string("required"))
        #expect(options["authenticatorSelection"]?.objectValue?["userVerification"] == .string("preferred"))
    }

    @Test func loginChallengeUsesCamelCaseRpId() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(.post, "/passkey/challenge", raw: #"{"client_id":"\#(harness.clientID)"}"#)
        }
        #expect(result.status == .ok)
        let options = try #require(result.json["authn_params_public_key"]?.objectValue)
        #expect(options["rpId"]?.stringValue == "localhost")
        #expect(options["userVerification"]?.stringValue == "preferred")
        #expect(options["allowCredentials"] == nil)
        #expect(options["timeout"] == .number(300_000))
    }

    @Test func eachChallengeIsFresh() async throws {
        let harness = try await TenantHarness()
        let (first, second) = try await harness.router { http in
            (try await harness.loginChallenge(http), try await harness.loginChallenge(http))
        }
        #expect(first.authSession != second.authSession)
        #expect(first.options.challenge != second.options.challenge)
    }

    static let badSignupProfiles: [(String, String)] = [
        (#"{}"#, "user_profile: an email"),
        (#"{"username":"ada"}"#, "user_profile.email"),
        (#"{"email":"not-an-email"}"#, "user_profile.email"),
        (#"{"email":"ada@example.com","phone_number":"0123"}"#, "user_profile.phone_number"),
        (#"{"email":"ada@example.com","username":"a d a"}"#, "user_profile.username"),
        (#"{"email":"ada@example.com","favourite_colour":"teal"}"#, "favourite_colour"),
        (#"{"email":7}"#, "user_profile.email"),
    ]

    @Test(arguments: badSignupProfiles)
    func signupRefusesABadProfile(profile: String, named: String) async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(
                .post, "/passkey/register", raw: #"{"client_id":"\#(harness.clientID)","user_profile":\#(profile)}"#)
        }
        expectRefused(result, "invalid_request", status: .badRequest)
        #expect(result.json["error_description"]?.stringValue?.contains(named) == true, "\(result.text)")
    }

    @Test func signupRefusesTooMuchMetadata() async throws {
        let harness = try await TenantHarness()
        let metadata = (1...11).map { #""k\#($0)":"v""# }.joined(separator: ",")
        let result = try await harness.router { http in
            try await http.send(
                .post, "/passkey/register",
                raw: #"{"client_id":"\#(harness.clientID)","user_profile":{"email":"a@example.com"},"#
                    + #""user_metadata":{\#(metadata)}}"#)
        }
        expectRefused(result, "invalid_request", status: .badRequest)
    }

    @Test func signupRefusesAnExistingUser() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            _ = try await harness.signUp(http, email: "ada@example.com")
            return try await http.send(
                .post, "/passkey/register",
                json: SignupChallengeRequest(
                    clientID: harness.clientID, userProfile: UserProfile(email: "ADA@example.com")))
        }
        expectRefused(result, "invalid_request", status: .badRequest, saying: "already exists")
    }

    @Test(arguments: ["/passkey/register", "/passkey/challenge"])
    func anUnknownClientIsUnauthorized(path: String) async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(
                .post, path, raw: #"{"client_id":"someone-else","user_profile":{"email":"a@example.com"}}"#)
        }
        expectRefused(result, "invalid_client", status: .unauthorized)
    }

    @Test(arguments: ["/passkey/register", "/passkey/challenge"])
    func anUnknownRealmIsRefused(path: String) async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await http.send(
                .post, path,
                raw: #"{"client_id":"\#(harness.clientID)","realm":"other","user_profile":{"email":"a@example.com"}}"#)
        }
        expectRefused(result, "invalid_request", status: .badRequest)
    }
}
