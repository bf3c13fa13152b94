import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import Testing
import WebAuthn

/// Responses an attacker or a broken authenticator sends: each refused with `invalid_grant`
/// naming the failed check, and nothing stored (issue 4, "Security").
@Suite struct SecurityTests {
    /// Signs a user up, then returns a login challenge and the device's assertion for it.
    private func loggingIn(_ harness: TenantHarness, _ http: any TestClientProtocol) async throws
        -> (RequestChallengeResponse, AuthenticationResponseJSON)
    {
        let challenge = try await harness.loginChallenge(http)
        return (challenge, try await harness.device.get(challenge.options, origin: TenantHarness.origin))
    }

    @Test func aReplayedAuthSessionIsRefused() async throws {
        let harness = try await TenantHarness()
        let (first, replay) = try await harness.router { http in
            _ = try await harness.signUp(http)
            let (challenge, assertion) = try await loggingIn(harness, http)
            let first = try await harness.grant(
                http, session: challenge.authSession, response: PasskeyResponse(assertion))
            return (
                first,
                try await harness.grant(http, session: challenge.authSession, response: PasskeyResponse(assertion))
            )
        }
        #expect(first.status == .ok)
        expectRefused(replay, "invalid_grant", status: .badRequest)
    }

    @Test func anExpiredAuthSessionIsRefused() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            let (session, response) = try await harness.signupResponse(http)
            harness.clock.advance(by: 301)
            return try await harness.grant(
                http, session: session, response: response)
        }
        expectRefused(result, "invalid_grant", saying: "expired")
    }

    @Test func aResponseForAnotherChallengeIsRefused() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            _ = try await harness.signUp(http)
            let (_, assertion) = try await loggingIn(harness, http)
            let other = try await harness.loginChallenge(http)
            return try await harness.grant(http, session: other.authSession, response: PasskeyResponse(assertion))
        }
        expectRefused(result, "invalid_grant", saying: "wrong-challenge")
    }

    @Test func aResponseFromAnotherOriginIsRefused() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            let challenge = try await harness.signupChallenge(http)
            let registration = try await harness.device.create(
                challenge.options, origin: try WebOrigin("https://localhost:8443"))
            let result = try await harness.grant(
                http, session: challenge.authSession, response: PasskeyResponse(registration))
            // Nothing stored: the same email signs up afterwards.
            _ = try await harness.signUp(http)
            return result
        }
        expectRefused(result, "invalid_grant", saying: "wrong-origin")
    }

    @Test func aCredentialScopedToAnotherRPIDIsRefused() async throws {
        var configuration = TenantConfiguration()
        configuration.additionalOrigins = ["https://app.localhost"]
        let harness = try await TenantHarness(configuration: configuration)
        let result = try await harness.router { http in
            var challenge = try await harness.signupChallenge(http)
            challenge.options.rp.id = "app.localhost"
            let registration = try await harness.device.create(
                challenge.options, origin: try WebOrigin("https://app.localhost"))
            return try await harness.grant(
                http, session: challenge.authSession, response: PasskeyResponse(registration))
        }
        expectRefused(result, "invalid_grant", saying: "wrong-rp-id-hash")
    }

    @Test func aClonedSecurityKeyWhoseCounterGoesBackIsRefused() async throws {
        let harness = try await TenantHarness(profile: .securityKey)
        let (newer, older) = try await harness.router { http in
            _ = try await harness.signUp(http)
            let (early, earlyAssertion) = try await loggingIn(harness, http)
            let (late, lateAssertion) = try await loggingIn(harness, http)
            let newer = try await harness.grant(
                http, session: late.authSession, response: PasskeyResponse(lateAssertion))
            let older = try await harness.grant(
                http, session: early.authSession, response: PasskeyResponse(earlyAssertion))
            return (newer, older)
        }
        #expect(newer.status == .ok)
        expectRefused(older, "invalid_grant", saying: "sign-count-not-increased")
    }

    @Test func userAsPasskeyWithUserBsHandleIsRefused() async throws {
        let harness = try await TenantHarness()
        let bob = TenantHarness.device()
        let result = try await harness.router { http in
            _ = try await harness.signUp(http, email: "alice@example.com")
            _ = try await harness.signUp(http, email: "bob@example.com", device: bob)
            let bobs = try await bob.get(harness.loginChallenge(http).options, origin: TenantHarness.origin)
            let (challenge, assertion) = try await loggingIn(harness, http)
            var alices = assertion
            alices.response.userHandle = bobs.response.userHandle
            return try await harness.grant(http, session: challenge.authSession, response: PasskeyResponse(alices))
        }
        expectRefused(result, "invalid_grant", saying: "user-handle-mismatch")
    }

    @Test func missingUserVerificationIsRefusedWhenTheConnectionRequiresIt() async throws {
        // A device whose user verification fails, asked (against the options) only to prefer it.
        let harness = try await TenantHarness(configuration: TenantConfiguration(requiresUserVerification: true))
        let device = TenantHarness.device(simulation: .denyUV)
        let result = try await harness.router { http in
            var challenge = try await harness.signupChallenge(http)
            #expect(challenge.options.authenticatorSelection?.userVerification == .required)
            challenge.options.authenticatorSelection?.userVerification = .preferred
            let registration = try await device.create(challenge.options, origin: TenantHarness.origin)
            return try await harness.grant(
                http, session: challenge.authSession, response: PasskeyResponse(registration))
        }
        expectRefused(result, "invalid_grant", saying: "uv-required-but-not-set")
    }

    @Test func aTamperedSignatureIsRefusedAndTheCounterKept() async throws {
        let harness = try await TenantHarness(profile: .securityKey)
        let (tampered, next) = try await harness.router { http in
            _ = try await harness.signUp(http)
            let (challenge, genuine) = try await loggingIn(harness, http)
            var assertion = genuine
            var signature = assertion.response.signature.bytes
            signature[signature.count / 2] ^= 0x01
            assertion.response.signature = Base64URL(signature)
            let tampered = try await harness.grant(
                http, session: challenge.authSession, response: PasskeyResponse(assertion))
            return (tampered, try await harness.logIn(http))
        }
        expectRefused(tampered, "invalid_grant", saying: "bad-signature")
        #expect(next.idToken != nil)
    }

    @Test func anAbsentUserIsRefused() async throws {
        let harness = try await TenantHarness()
        let store = InMemoryCredentialStore()
        let absent = WebAuthnClient(
            authenticator: SoftwareAuthenticator(store: store, simulation: .noPresence))
        let result = try await harness.router { http in
            let challenge = try await harness.signupChallenge(http)
            let registration = try await absent.create(challenge.options, origin: TenantHarness.origin)
            return try await harness.grant(
                http, session: challenge.authSession, response: PasskeyResponse(registration))
        }
        expectRefused(result, "invalid_grant", saying: "up-flag-missing")
    }

    @Test func anUnknownCredentialIsRefused() async throws {
        let harness = try await TenantHarness()
        let stranger = TenantHarness.device()
        let result = try await harness.router { http in
            let other = try await TenantHarness()
            _ = try await other.router { otherHTTP in try await other.signUp(otherHTTP, device: stranger) }
            let challenge = try await harness.loginChallenge(http)
            let assertion = try await stranger.get(challenge.options, origin: TenantHarness.origin)
            return try await harness.grant(http, session: challenge.authSession, response: PasskeyResponse(assertion))
        }
        #expect(result.errorCode == "invalid_grant")
    }

    @Test func aLoginResponseForASignupSessionIsRefused() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            _ = try await harness.signUp(http)
            let (_, assertion) = try await loggingIn(harness, http)
            let signup = try await harness.signupChallenge(http, email: "other@example.com")
            return try await harness.grant(http, session: signup.authSession, response: PasskeyResponse(assertion))
        }
        expectRefused(result, "invalid_request", status: .badRequest)
    }

    @Test func aSessionOfAnotherConnectionIsRefused() async throws {
        var configuration = TenantConfiguration()
        configuration.organizations = [TenantOrganization(name: "other", id: "org_other")]
        configuration.organizationUsage = .allow
        let harness = try await TenantHarness(configuration: configuration)
        let result = try await harness.router { http in
            let (session, response) = try await harness.signupResponse(http)
            return try await http.send(
                .post, "/oauth/token",
                json: TokenRequest(
                    grantType: TokenRequest.webAuthnGrant, clientID: harness.clientID,
                    authSession: session, authnResponse: response, scope: "openid",
                    organization: "org_other"))
        }
        #expect(result.errorCode == "invalid_grant")
    }
}
