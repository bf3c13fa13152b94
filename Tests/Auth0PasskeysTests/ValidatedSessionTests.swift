import Auth0Passkeys
import FoundationEssentials
import PasskeyTenant
import TestSupport
import Testing

/// A credentials manager with an ID token validator stores only tokens that pass it (spec §14.5),
/// so its `user` reads a validated token: the live tenant's tokens pass, with the issuer read
/// from its discovery document; a forged one is refused and the session stays as it was.
@Suite struct ValidatedSessionTests {
    @Test func onlyValidatedTokensAreStored() async throws {
        try await LiveTenant.run { live in
            let validator = IDTokenValidator(authentication: live.auth)
            #expect(try await validator.expectedIssuer() == live.tenant.configuration.issuer)
            let manager = CredentialsManager(
                authentication: live.auth, storage: InMemoryCredentialsStorage(), idTokenValidator: validator)
            let phone = LiveTenant.device()
            let (_, signup) = try await live.signUp("ada@example.com", device: phone)
            try await manager.store(credentials: signup)
            let user = try #require(await manager.user)

            // Signed with a key the tenant does not publish: refused, nothing replaced.
            let key = try await IDTokenValidatorTests.TestKey(kid: live.tenant.signingKeyID)
            var claims = IDTokenValidatorTests.Claims()
            claims.iss = live.tenant.configuration.issuer
            claims.aud = [live.tenant.clientID]
            claims.sub = "auth0|someone-else"
            claims.exp = Int(Date().timeIntervalSince1970) + 3600
            claims.iat = Int(Date().timeIntervalSince1970)
            let forged = Credentials(
                accessToken: "AT", tokenType: "Bearer", idToken: try await key.sign(claims), refreshToken: nil,
                expiresAt: Date().addingTimeInterval(3600), scope: nil)
            do throws(CredentialsManagerError) {
                try await manager.store(credentials: forged)
                Issue.record("a forged ID token was stored")
            } catch {
                #expect(error.code == .invalidIDToken)
                #expect((error.cause as? IDTokenValidationError)?.code == .invalidSignature)
            }
            #expect(await manager.user?.sub == user.sub)

            // A renewal's ID token is validated too, and kept.
            let renewed = try await manager.renew()
            #expect(try await validator.validate(renewed.idToken).subject == user.sub)

            // Without a validator the manager stores what it is given, as Auth0.swift's does.
            let trusting = CredentialsManager(authentication: live.auth, storage: InMemoryCredentialsStorage())
            try await trusting.store(credentials: forged)
            #expect(await trusting.user?.sub == "auth0|someone-else")
        }
    }

    @Test func anUnreachableDiscoveryDocumentIsItsOwnRefusal() async throws {
        let server = CannedServer()
        try await server.run { baseURL in
            let auth = try Authentication(clientId: "client", baseURL: baseURL)
            do throws(IDTokenValidationError) {
                _ = try await IDTokenValidator(authentication: auth).expectedIssuer()
                Issue.record("an issuer was discovered from a 404")
            } catch {
                #expect(error.code == .discoveryUnavailable)
            }
        }
    }
}
