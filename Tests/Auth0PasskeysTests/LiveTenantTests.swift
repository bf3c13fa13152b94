import Auth0Passkeys
import FoundationEssentials
import InMemoryLogging
import Logging
import PasskeyAuthenticator
import PasskeyTenant
import Testing
import WebAuthn

/// Every call of the client against the local tenant over loopback, with the real
/// `CurlTransport` and passkeys from the software authenticator.
@Suite struct LiveTenantTests {
    @Test func signupLoginEnrollmentRefreshAPICredentialsRevoke() async throws {
        try await LiveTenant.run { live in
            let phone = LiveTenant.device()
            let (signupChallenge, signup) = try await live.signUp("ada@example.com", device: phone)
            #expect(signupChallenge.relyingPartyId == "localhost")
            #expect(!signup.accessToken.isEmpty && !signup.idToken.isEmpty)
            #expect(signup.refreshToken != nil)
            #expect(signup.tokenType.lowercased() == "bearer")
            #expect(signup.expiresAt > Date().addingTimeInterval(3600))

            let user = try await live.auth.userInfo(withAccessToken: signup.accessToken).start()
            #expect(user.email == "ada@example.com")

            let (_, login) = try await live.logIn(device: phone)
            #expect(login.accessToken != signup.accessToken)

            // The CredentialsManager takes over the login's credentials.
            let manager = CredentialsManager(authentication: live.auth, storage: InMemoryCredentialsStorage())
            try await manager.store(credentials: login)
            #expect(await manager.user?.sub == user.sub)
            #expect(try await manager.credentials().accessToken == login.accessToken)
            let renewed = try await manager.renew()
            #expect(renewed.accessToken != login.accessToken)
            #expect(try await live.auth.userInfo(withAccessToken: renewed.accessToken).start().sub == user.sub)

            // A My Account token from the refresh token, then a second passkey on a second device.
            let audience = live.tenant.configuration.myAccountAudience
            let scope =
                "create:me:authentication_methods read:me:authentication_methods delete:me:authentication_methods"
            let api = try await manager.apiCredentials(forAudience: audience, scope: scope)
            // Stored, not exchanged again: a new exchange would bring a new token.
            #expect(
                try await manager.apiCredentials(forAudience: audience, scope: scope).accessToken == api.accessToken)
            let myAccount = try MyAccount(token: api.accessToken, baseURL: live.baseURL)
            let laptop = LiveTenant.device()
            let enrollment = try await myAccount.authenticationMethods.passkeyEnrollmentChallenge().start()
            #expect(enrollment.userId == signupChallenge.userId)
            let newPasskey = try await laptop.register(
                laptop.createCredentialRegistrationRequest(
                    challenge: enrollment.challengeData, name: enrollment.userName, userID: enrollment.userId))
            let method = try await myAccount.authenticationMethods.enroll(passkey: newPasskey, challenge: enrollment)
                .start()
            #expect(method.type == "passkey")
            #expect(method.credential.userHandle == signupChallenge.userId)
            #expect(method.relyingPartyIdentifier == "localhost")
            #expect(method.credential.deviceType == .multiDevice)

            // The new passkey signs in as the same user.
            let (_, laptopLogin) = try await live.logIn(device: laptop)
            #expect(try await live.auth.userInfo(withAccessToken: laptopLogin.accessToken).start().sub == user.sub)

            let methods = try await myAccount.authenticationMethods.getAuthenticationMethods(type: "passkey").start()
            #expect(methods.count == 2)
            #expect(methods.contains { $0.id == method.id })
            #expect(
                try await myAccount.authenticationMethods.getAuthenticationMethod(by: method.id).start().id == method.id
            )
            try await myAccount.authenticationMethods.deleteAuthenticationMethod(by: method.id).start()
            #expect(try await myAccount.authenticationMethods.getAuthenticationMethods().start().count == 1)
            await #expect(throws: AuthenticationError.self) { try await live.logIn(device: laptop) }

            // Revoke, then the refresh token is dead.
            let refreshToken = try #require(try await manager.credentials().refreshToken)
            try await manager.revoke()
            #expect(await !manager.hasValid())
            let dead = await #expect(throws: AuthenticationError.self) {
                try await live.auth.renew(withRefreshToken: refreshToken).start()
            }
            #expect(dead?.code == .invalidGrant)
            // Auth0's answer to a refused refresh token: 403, and the SDK's predicate names it.
            #expect(dead?.statusCode == 403 && dead?.isInvalidRefreshToken == true && dead?.isRetryable == false)
            // The Credentials Manager's renewal keeps it as the cause of `renewFailed`.
            try await manager.store(credentials: login)
            let renewal = await #expect(throws: CredentialsManagerError.self) { try await manager.renew() }
            #expect(renewal?.code == .renewFailed)
            #expect((renewal?.cause as? AuthenticationError)?.isInvalidRefreshToken == true)
        }
    }

    @Test func jwksNamesTheSigningKey() async throws {
        try await LiveTenant.run { live in
            let jwks = try await live.auth.jwks().start()
            let key = try #require(jwks.key(id: live.tenant.signingKeyID))
            #expect(key.keyType == "RSA" && key.modulus != nil && key.exponent != nil)
        }
    }

    @Test func apiCredentialsForAnotherAudience() async throws {
        try await LiveTenant.run { live in
            let (_, signup) = try await live.signUp("grace@example.com", device: LiveTenant.device())
            let exchanged = try await live.auth.renew(
                withRefreshToken: try #require(signup.refreshToken), audience: live.tenant.configuration.apiAudience,
                scope: "openid"
            ).start()
            let api = APICredentials(exchanged)
            #expect(!api.accessToken.isEmpty && api.accessToken != signup.accessToken)
        }
    }

    @Test func theTenantsRefusalsBecomeAuthenticationErrors() async throws {
        try await LiveTenant.run { live in
            let phone = LiveTenant.device()
            _ = try await live.signUp("ada@example.com", device: phone)
            let taken = await #expect(throws: AuthenticationError.self) {
                try await live.auth.passkeySignupChallenge(email: "ada@example.com").start()
            }
            #expect(taken?.code == .invalidRequest && taken?.statusCode == 400)

            // An auth_session is single-use.
            let challenge = try await live.auth.passkeyLoginChallenge().start()
            let passkey = try await phone.assert(
                phone.createCredentialAssertionRequest(challenge: challenge.challengeData))
            _ = try await live.auth.login(passkey: passkey, challenge: challenge).start()
            let reused = await #expect(throws: AuthenticationError.self) {
                try await live.auth.login(passkey: passkey, challenge: challenge).start()
            }
            #expect(reused?.statusCode ?? 0 >= 400 && reused?.isRetryable == false)

            // A passkey the tenant does not know.
            let stranger = LiveTenant.device()
            let other = try await live.auth.passkeySignupChallenge(email: "eve@example.com").start()
            _ = try await stranger.register(
                stranger.createCredentialRegistrationRequest(
                    challenge: other.challengeData, name: other.userName, userID: other.userId))
            await #expect(throws: AuthenticationError.self) { try await live.logIn(device: stranger) }

            let unknownClient = try Authentication(clientId: "nobody", baseURL: live.baseURL)
            let refused = await #expect(throws: AuthenticationError.self) {
                try await unknownClient.passkeyLoginChallenge().start()
            }
            #expect(refused?.statusCode == 401)

            let badToken = await #expect(throws: MyAccountError.self) {
                try await MyAccount(token: "not-a-token", baseURL: live.baseURL).authenticationMethods
                    .passkeyEnrollmentChallenge().start()
            }
            #expect(badToken?.statusCode == 401)
        }
    }

    /// STYLE §5: a signup and a login traced at `.trace` log no token, session, challenge or
    /// Authorization value, while the trace does carry the redacted bodies.
    @Test func aTracedSignupAndLoginLogNoSecret() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "auth0-test", factory: { _ in logs })
        logger.logLevel = .trace
        let secrets = try await LiveTenant.run(logger: logger) { live in
            let phone = LiveTenant.device()
            let (signupChallenge, signup) = try await live.signUp("ada@example.com", device: phone)
            let (loginChallenge, login) = try await live.logIn(device: phone)
            _ = try await live.auth.userInfo(withAccessToken: login.accessToken).start()
            _ = try await live.auth.renew(withRefreshToken: try #require(login.refreshToken)).start()
            var secrets = [
                signupChallenge.authenticationSession, loginChallenge.authenticationSession,
                Base64URL.encode(signupChallenge.challengeData), Base64URL.encode(loginChallenge.challengeData),
                "Bearer \(login.accessToken)",
            ]
            for credentials in [signup, login] {
                secrets += [credentials.accessToken, credentials.idToken, try #require(credentials.refreshToken)]
            }
            return secrets
        }
        let entries = logs.entries
        let text = entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(entries.count >= 20)
        #expect(text.contains("response body: {") && text.contains(#""access_token":"<redacted>""#))
        #expect(text.contains(#""auth_session":"<redacted>""#) && text.contains("Authorization: <redacted>"))
        #expect(secrets.allSatisfy { $0.count >= 16 })
        for secret in secrets {
            #expect(!text.contains(secret))
        }
    }
}
