import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// The login page's signup follows the connection's identifiers as `/passkey/register` does
/// (auth0-passkey-api.md §18): an email, a phone number or a username, by its shape.
@Suite struct FlexibleIdentifierPageTests {
    static func harness() async throws -> TenantHarness {
        var configuration = TenantConfiguration()
        configuration.identifiers = ConnectionAttributes(
            email: IdentifierAttribute(signup: .inactive), phoneNumber: IdentifierAttribute(signup: .optional),
            username: IdentifierAttribute(signup: .optional, usernameLength: 3...15))
        return try await TenantHarness(configuration: configuration)
    }

    @Test(arguments: ["ada_l", "+14155550123"])
    func thePageSignsUpByUsernameOrPhone(identifier: String) async throws {
        let harness = try await Self.harness()
        let flow = WebAuthFlow(harness)
        let (page, tokens) = try await harness.router { http in
            let page = try await flow.authorize(http, ["screen_hint": "signup", "scope": "openid profile phone"])
            let (code, _) = try await flow.signUpForCode(
                http, ["screen_hint": "signup", "scope": "openid profile phone"], email: identifier)
            return (page, try await flow.exchange(http, code: code).decode(TokenResponse.self))
        }
        #expect(page.text.contains("Email, phone number or username"))
        #expect(page.text.contains(#"type="text""#))
        let claims = try jwtClaims(tokens.idToken)
        #expect(claims[identifier.hasPrefix("+") ? "phone_number" : "preferred_username"] == .string(identifier))
    }

    @Test(arguments: [
        ("ada@example.com", "user_profile.email is not allowed"),
        ("ab", "user_profile.username: 3 to 15 characters"),
        ("+0123", "user_profile.phone_number: not an E.164 number"),
    ])
    func thePageRefusesAnIdentifierOutsideTheRules(identifier: String, description: String) async throws {
        let harness = try await Self.harness()
        let flow = WebAuthFlow(harness)
        let result = try await harness.router { http in
            let page = try flow.page(try await flow.authorize(http))
            return try await flow.options(http, page, mode: "signup", identifier: identifier)
        }
        expectRefused(result, "invalid_request", status: .badRequest)
        #expect(result.json["error_description"]?.stringValue?.hasPrefix(description) == true, "\(result.text)")
    }
}
