import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// `POST /dbconnections/signup` (issue 41): Auth0's answer and its refusals, in Auth0's
/// `{name, code, description, statusCode}` shape.
@Suite struct PasswordSignupTests {
    @Test func aSignupAnswersTheNewUser() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            try await harness.passwordSignup(
                http, email: "Ada@Example.com",
                fields: [
                    "username": .string("ada"), "given_name": .string("Ada"), "family_name": .string("Lovelace"),
                    "user_metadata": .object(["plan": .string("pro")]),
                ])
        }
        #expect(result.status == .ok, "\(result.text)")
        let json = result.json
        #expect(json["_id"]?.stringValue?.count == 24)
        #expect(json["email"] == .string("Ada@Example.com"))
        #expect(json["email_verified"] == .bool(false))
        #expect(json["username"] == .string("ada"))
        #expect(json["given_name"] == .string("Ada"))
        #expect(json["user_metadata"] == .object(["plan": .string("pro")]))
        #expect(!result.text.contains(TenantHarness.strongPassword))
    }

    @Test func anExistingEmailOrUsernameIsRefused() async throws {
        let harness = try await TenantHarness()
        let (email, username, passkeyUser) = try await harness.router { http in
            _ = try await harness.passwordSignup(http, fields: ["username": .string("ada")])
            _ = try await harness.signUp(http, email: "grace@example.com")
            return (
                try await harness.passwordSignup(http, email: "ADA@example.com"),
                try await harness.passwordSignup(
                    http, email: "other@example.com", fields: ["username": .string("ADA")]),
                try await harness.passwordSignup(http, email: "grace@example.com")
            )
        }
        expectDatabaseRefusal(email, "user_exists", description: "The user already exists.")
        expectDatabaseRefusal(username, "username_exists", description: "The username provided is in use already.")
        expectDatabaseRefusal(passkeyUser, "user_exists")
    }

    /// Each level refuses the password just below it and admits the one that keeps its rules.
    @Test(arguments: [
        (PasswordPolicy.none, "", "x"),
        (.low, "abcde", "abcdef"),
        (.fair, "abcdefg1", "abcDefg1"),
        (.good, "abcdefg1", "abcdefg1!"),
        (.excellent, "Abcdefggg1", "Abcdefgg1!"),
    ])
    func aWeakPasswordIsRefusedWithThePolicy(policy: PasswordPolicy, weak: String, strong: String) async throws {
        let harness = try await TenantHarness(configuration: .passwords { $0.passwordPolicy = policy })
        let (refused, admitted) = try await harness.router { http in
            (
                try await harness.passwordSignup(http, email: "weak@example.com", password: weak),
                try await harness.passwordSignup(http, email: "strong@example.com", password: strong)
            )
        }
        #expect(admitted.status == .ok, "\(policy) \(admitted.text)")
        #expect(refused.status == .badRequest)
        if weak.isEmpty {
            expectDatabaseRefusal(refused, "invalid_signup")
        } else {
            #expect(refused.json["code"] == .string("invalid_password"))
            #expect(refused.json["name"] == .string("PasswordStrengthError"))
            #expect(refused.json["statusCode"] == .number(400))
            #expect(refused.json["policy"]?.stringValue?.hasPrefix("* At least") == true)
            #expect(refused.json["description"]?["verified"] == .bool(false))
            #expect(!refused.text.contains(weak))
        }
    }

    @Test func badSignupsAreRefused() async throws {
        let harness = try await TenantHarness()
        let results = try await harness.router { http in
            [
                try await harness.passwordSignup(http, connection: "Other"),
                try await harness.passwordSignup(http, password: nil),
                try await harness.passwordSignup(http, email: nil),
                try await harness.passwordSignup(http, email: "not an email"),
                try await http.send(
                    .post, "/dbconnections/signup",
                    raw: #"{"client_id":"nobody","email":"a@example.com","password":"x","connection":"c"}"#),
            ]
        }
        expectDatabaseRefusal(results[0], "bad.connection")
        expectDatabaseRefusal(results[1], "invalid_signup")
        expectDatabaseRefusal(results[2], "invalid_signup")
        expectDatabaseRefusal(results[3], "invalid_signup")
        expectDatabaseRefusal(results[4], "invalid_client", status: .unauthorized)
    }

    @Test func botDetectionWantsTheCaptchaAnswer() async throws {
        let harness = try await TenantHarness(
            configuration: .passwords {
                $0.botDetection = .always
                $0.captchaAnswer = Secret("test-answer")
            })
        let (missing, wrong, right) = try await harness.router { http in
            (
                try await harness.passwordSignup(http),
                try await harness.passwordSignup(http, fields: ["captcha": .string("guess")]),
                try await harness.passwordSignup(http, fields: ["captcha": .string("test-answer")])
            )
        }
        expectDatabaseRefusal(missing, "requires_verification", description: "Suspicious request requires verification")
        expectDatabaseRefusal(wrong, "requires_verification")
        #expect(right.status == .ok, "\(right.text)")
    }

    @Test func aConnectionWithoutPasswordsRefusesSignup() async throws {
        let harness = try await TenantHarness(configuration: .passwords { $0.passwordsEnabled = false })
        let result = try await harness.router { http in try await harness.passwordSignup(http) }
        expectDatabaseRefusal(result, "bad.connection")
    }
}

/// Expects a `/dbconnections/*` refusal: `{name, code, description, statusCode}`.
func expectDatabaseRefusal(
    _ result: HTTPResult, _ code: String, status: HTTPResponse.Status = .badRequest, description: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.status == status, "\(result.text)", sourceLocation: sourceLocation)
    #expect(result.json["code"] == .string(code), "\(result.text)", sourceLocation: sourceLocation)
    #expect(result.json["statusCode"] == .number(Double(status.code)), sourceLocation: sourceLocation)
    #expect(result.json["name"]?.stringValue?.hasSuffix("Error") == true, sourceLocation: sourceLocation)
    if let description {
        #expect(result.json["description"] == .string(description), sourceLocation: sourceLocation)
    }
}
