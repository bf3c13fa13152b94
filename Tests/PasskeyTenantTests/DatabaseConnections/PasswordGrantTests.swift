import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The password-realm and password grants (issue 41): tokens for the right password, Auth0's
/// `invalid_grant` (403) for every wrong one, the lockout, bot detection, and the clients allowed.
@Suite struct PasswordGrantTests {
    @Test func theRealmGrantAndThePasswordGrantIssueTokens() async throws {
        let harness = try await TenantHarness()
        let (signup, byEmail, byUsername, plain) = try await harness.router { http in
            (
                try await harness.passwordSignup(http, fields: ["username": .string("ada")]),
                try await harness.passwordLogin(http, username: "ADA@example.com"),
                try await harness.passwordLogin(http, username: "ada"),
                try await harness.passwordLogin(http, realm: nil)
            )
        }
        let userID = "auth0|" + (signup.json["_id"]?.stringValue ?? "")
        for result in [byEmail, byUsername, plain] {
            #expect(result.status == .ok, "\(result.text)")
            let tokens = try result.decode(TokenResponse.self)
            #expect(tokens.refreshToken != nil)
            #expect(try jwtClaims(tokens.idToken)["sub"] == .string(userID))
        }
    }

    @Test func aWrongPasswordAnUnknownUserAndAPasskeyOnlyUserGetOneAnswer() async throws {
        let harness = try await TenantHarness()
        let results = try await harness.router { http in
            _ = try await harness.passwordSignup(http)
            _ = try await harness.signUp(http, email: "grace@example.com")
            return [
                try await harness.passwordLogin(http, password: "Wrong-Horse-9"),
                try await harness.passwordLogin(http, username: "nobody@example.com"),
                try await harness.passwordLogin(http, username: "grace@example.com"),
            ]
        }
        for result in results {
            expectRefused(result, "invalid_grant", status: .forbidden, description: "Wrong email or password.")
        }
    }

    @Test func repeatedWrongPasswordsLockTheUserOut() async throws {
        var configuration = TenantConfiguration()
        configuration.attemptLimits = AttemptLimits(perUser: 3, perAddress: 1000, window: .seconds(60))
        let harness = try await TenantHarness(configuration: configuration)
        let (failures, locked, later) = try await harness.router { http in
            _ = try await harness.passwordSignup(http)
            var failures: [HTTPResult] = []
            for _ in 0..<3 { failures.append(try await harness.passwordLogin(http, password: "Wrong-Horse-9")) }
            let locked = try await harness.passwordLogin(http)
            harness.clock.advance(by: 61)
            return (failures, locked, try await harness.passwordLogin(http))
        }
        #expect(failures.allSatisfy { $0.status == .forbidden })
        expectRefused(locked, "too_many_attempts", status: .tooManyRequests)
        #expect(later.status == .ok, "\(later.text)")
    }

    @Test func botDetectionWantsTheCaptchaAnswer() async throws {
        let harness = try await TenantHarness(
            configuration: .passwords {
                $0.botDetection = .always
                $0.captchaAnswer = Secret("test-answer")
            })
        let (missing, wrong, right, plain) = try await harness.router { http in
            _ = try await harness.passwordSignup(http, fields: ["captcha": .string("test-answer")])
            return (
                try await harness.passwordLogin(http),
                try await harness.passwordLogin(http, captcha: "guess"),
                try await harness.passwordLogin(http, captcha: "test-answer"),
                try await harness.passwordLogin(http, realm: nil)
            )
        }
        expectRefused(
            missing, "requires_verification", status: .badRequest,
            description: "Suspicious request requires verification")
        expectRefused(wrong, "requires_verification")
        expectRefused(plain, "requires_verification")
        #expect(right.status == .ok, "\(right.text)")
    }

    @Test func badRequestsAreRefused() async throws {
        let harness = try await TenantHarness()
        let (realm, noUsername) = try await harness.router { http in
            _ = try await harness.passwordSignup(http)
            return (
                try await harness.passwordLogin(http, realm: "Other"),
                try await harness.passwordLogin(http, username: "")
            )
        }
        expectRefused(realm, "invalid_request")
        expectRefused(noUsername, "invalid_request", saying: "username")
    }

    /// A configured application uses the password grants only with the `password` grant type, as
    /// Auth0's "Password" grant type in the dashboard.
    @Test func onlyAClientWithThePasswordGrantTypeMayUseIt() async throws {
        var configuration = TenantConfiguration()
        configuration.applications = [
            TenantApplication(name: "plain", appType: .native),
            {
                var app = TenantApplication(name: "with-password", appType: .native)
                app.grantTypes.append(TokenRequest.passwordGrant)
                return app
            }(),
        ]
        let harness = try await TenantHarness(configuration: configuration)
        let plain = harness.acting(as: harness.tenant.applications[0])
        let allowed = harness.acting(as: harness.tenant.applications[1])
        let (refused, admitted) = try await harness.router { http in
            _ = try await harness.passwordSignup(http)
            return (try await plain.passwordLogin(http), try await allowed.passwordLogin(http))
        }
        expectRefused(refused, "unauthorized_client", status: .forbidden)
        #expect(admitted.status == .ok, "\(admitted.text)")
    }

    /// Deleting a user deletes its password: the same email signs up again, and the old password
    /// is gone with the old user.
    @Test func deletingAUserDeletesItsPassword() async throws {
        let harness = try await TenantHarness()
        let (again, oldPassword) = try await harness.router { http in
            let signup = try await harness.passwordSignup(http)
            let id = "auth0|" + (signup.json["_id"]?.stringValue ?? "")
            let token = try await harness.managementToken(http)
            let deleted = try await http.send(
                .delete, "/api/v2/users/" + id.replacing("|", with: "%7C"), bearer: token)
            #expect(deleted.status == .noContent, "\(deleted.text)")
            let again = try await harness.passwordSignup(http, password: "Other-Horse-7")
            return (again, try await harness.passwordLogin(http))
        }
        #expect(again.status == .ok, "\(again.text)")
        expectRefused(oldPassword, "invalid_grant", status: .forbidden)
    }
}
