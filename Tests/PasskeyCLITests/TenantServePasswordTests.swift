import ArgumentParser
import PasskeyTenant
import Testing

@testable import passkey

/// `passkey tenant serve`'s password options (issue 41): `--password-policy`, `--bot-detection`,
/// `--captcha-answer`, over `--config`'s `password_policy`, `bot_detection`, `captcha_answer`.
@Suite struct TenantServePasswordTests {
    @Test func theOptionsSetTheDatabaseConnection() throws {
        let command = try Passkey.parseAsRoot([
            "tenant", "serve", "--password-policy", "excellent", "--bot-detection", "always", "--captcha-answer", "ok",
        ])
        let serve = try #require(command as? Passkey.Tenant.Serve)
        var configuration = TenantConfiguration()
        serve.passwordOptions.apply(to: &configuration)
        #expect(configuration.databaseConnection.passwordPolicy == .excellent)
        #expect(configuration.databaseConnection.botDetection == .always)
        #expect(configuration.databaseConnection.captchaAnswer == Secret("ok"))
        #expect(throws: (any Error).self) { try Passkey.parseAsRoot(["tenant", "serve", "--password-policy", "weak"]) }
        #expect(throws: (any Error).self) { try Passkey.parseAsRoot(["tenant", "serve", "--bot-detection", "risky"]) }
    }

    @Test func theDefaultsAreAuth0s() throws {
        let serve = try #require(try Passkey.parseAsRoot(["tenant", "serve"]) as? Passkey.Tenant.Serve)
        var configuration = TenantConfiguration()
        serve.passwordOptions.apply(to: &configuration)
        #expect(configuration.databaseConnection == DatabaseConnectionOptions())
        #expect(configuration.databaseConnection.passwordPolicy == .good)
        #expect(configuration.databaseConnection.botDetection == .off)
    }
}
