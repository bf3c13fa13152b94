import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// Flexible identifiers end to end (auth0-passkey-api.md §18): a local tenant on loopback whose
/// connection takes phone numbers and usernames, the real libcurl client and software
/// authenticator; signup by each identifier, login after each, and each refusal.
@Suite struct FlexibleIdentifierTests {
    /// Runs `body` with a tenant configured by `change`, served on a free port.
    private func withTenant(
        _ change: (inout TenantConfiguration) -> Void, _ body: @Sendable (Tenant) async throws -> Void
    ) async throws {
        var configuration = TenantConfiguration()
        change(&configuration)
        let tenant = try await PasskeyTenant(configuration: configuration, database: ":memory:")
        try await tenant.serving { endpoint in
            var connection = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
            connection.scope = "openid profile email phone offline_access"
            try await body(connection)
        }
    }

    /// Email optional, phone number and username optional, usernames of 3 to 15 characters,
    /// usernames first.
    private static func flexible(_ configuration: inout TenantConfiguration) {
        configuration.identifiers = ConnectionAttributes(
            email: IdentifierAttribute(signup: .optional), phoneNumber: IdentifierAttribute(signup: .optional),
            username: IdentifierAttribute(signup: .optional, usernameLength: 3...15),
            precedence: [.username, .phoneNumber, .email])
    }

    /// Signup by phone number only, by username only; login after each.
    @Test(arguments: [(nil, "+14155550123"), ("ada_l", nil)] as [(String?, String?)])
    func signupByOneIdentifierThenLogin(username: String?, phone: String?) async throws {
        try await withTenant(Self.flexible) { tenant in
            let user = VirtualUser(tenant: tenant, device: VirtualDevice(store: InMemoryCredentialStore()))
            let signup = try await user.signUp(phone: phone, username: username)
            #expect(signup.user.phoneNumber == phone)
            #expect(signup.user.preferredUsername == username)
            #expect(signup.user.email == nil)
            let login = try await user.logIn()
            #expect(login.user.sub == signup.user.sub)
            #expect(login.passkeyUserName == phone ?? username)
        }
    }

    @Test func signupByEmailAndUsernameNamesThePasskeyByPrecedence() async throws {
        try await withTenant(Self.flexible) { tenant in
            let user = VirtualUser(tenant: tenant, device: VirtualDevice(store: InMemoryCredentialStore()))
            let signup = try await user.signUp(email: "ada@example.com", username: "ada_l")
            #expect(signup.user.email == "ada@example.com")
            let login = try await user.logIn()
            #expect(login.user.sub == signup.user.sub)
            // Usernames come first in this connection's precedence: the creation options' user.name.
            #expect(login.passkeyUserName == "ada_l")
        }
    }

    /// Each refusal of `/passkey/register`, as Auth0's `invalid_request` with the local texts.
    @Test(
        arguments: [
            (
                nil, "+14155550123", nil,
                "user_profile.username is required by connection Username-Password-Authentication"
            ),
            ("ada@example.com", nil, "ada_l", "user_profile.email is not allowed"),
            (nil, "4155550123", "ada_l", "user_profile.phone_number: not an E.164 number (+ and 7 to 15 digits)"),
            (
                nil, nil, "ab",
                "user_profile.username: 3 to 15 characters for connection Username-Password-Authentication"
            ),
            (nil, nil, "a_very_long_username", "user_profile.username: 3 to 15 characters"),
            (nil, nil, "taken_name", "The user already exists."),
            (nil, "+14155550100", "someone_else", "The user already exists."),
        ] as [(String?, String?, String?, String)])
    func aSignupOutsideTheRulesIsRefused(email: String?, phone: String?, username: String?, description: String)
        async throws
    {
        try await withTenant({ configuration in
            configuration.identifiers = ConnectionAttributes(
                email: IdentifierAttribute(signup: .inactive), phoneNumber: IdentifierAttribute(signup: .optional),
                username: IdentifierAttribute(signup: .required, usernameLength: 3...15))
        }) { tenant in
            let first = VirtualUser(tenant: tenant, device: VirtualDevice(store: InMemoryCredentialStore()))
            try await first.signUp(phone: "+14155550100", username: "taken_name")
            let device = VirtualDevice(store: InMemoryCredentialStore())
            let user = VirtualUser(tenant: tenant, device: device)
            let error = await #expect(throws: PasskeyFlowError.self) {
                try await user.signUp(email: email, phone: phone, username: username)
            }
            guard case .authentication(let refusal)? = error else {
                Issue.record("not the tenant's refusal: \(String(describing: error))")
                return
            }
            #expect(refusal.statusCode == 400)
            #expect(refusal.code.rawValue == "invalid_request")
            #expect(refusal.reason.hasPrefix(description), "\(refusal.reason)")
            #expect(try await device.store?.all().credentials.isEmpty == true)
        }
    }

    @Test func theDefaultConnectionStillRequiresAnEmail() async throws {
        try await withTenant({ _ in }) { tenant in
            let user = VirtualUser(tenant: tenant, device: VirtualDevice(store: InMemoryCredentialStore()))
            let error = await #expect(throws: PasskeyFlowError.self) { try await user.signUp(username: "ada_l") }
            guard case .authentication(let refusal)? = error else {
                Issue.record("not the tenant's refusal: \(String(describing: error))")
                return
            }
            #expect(
                refusal.reason.hasPrefix(
                    "user_profile.email is required by connection Username-Password-Authentication"))
            let signup = try await user.signUp(email: "ada@example.com", phone: "+14155550123", username: "ada_l")
            #expect(try await user.logIn().user.sub == signup.user.sub)
        }
    }
}
