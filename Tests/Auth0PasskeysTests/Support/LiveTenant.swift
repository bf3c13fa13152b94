import Auth0Passkeys
import Logging
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport

/// The local tenant served on a loopback port, and the clients and authenticator that talk to
/// it: the real `CurlTransport`, the real software authenticator (STYLE §7).
struct LiveTenant {
    let tenant: PasskeyTenant
    let auth: Authentication
    let baseURL: String
    let logger: Logger?

    /// A device: a software authenticator with its own store, behind the platform provider.
    static func device(rpID: String = "localhost") -> PlatformCredentialProvider {
        PlatformCredentialProvider(
            relyingPartyIdentifier: rpID,
            authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .platform))
    }

    /// Runs `body` against a fresh tenant on an in-memory database, signing with the fixture key.
    static func run<Value: Sendable>(
        configuration: TenantConfiguration = TenantConfiguration(), logger: Logger? = nil,
        _ body: @Sendable (LiveTenant) async throws -> Value
    ) async throws -> Value {
        let tenant = try await TestTenant.open(configuration: configuration)
        return try await TestTenant.serve(tenant) { _, baseURL in
            let auth = try Authentication(clientId: tenant.clientID, baseURL: baseURL, logger: logger)
            return try await body(LiveTenant(tenant: tenant, auth: auth, baseURL: baseURL, logger: logger))
        }
    }

    /// Signs a new user up with a new passkey of `device`.
    func signUp(
        _ email: String, device: PlatformCredentialProvider, scope: String = Authentication.defaultScope,
        audience: String? = nil
    ) async throws -> (PasskeySignupChallenge, Credentials) {
        let challenge = try await auth.passkeySignupChallenge(email: email, name: "Test User").start()
        let passkey = try await device.register(
            device.createCredentialRegistrationRequest(
                challenge: challenge.challengeData, name: challenge.userName, userID: challenge.userId))
        let credentials = try await auth.login(passkey: passkey, challenge: challenge, audience: audience, scope: scope)
            .start()
        return (challenge, credentials)
    }

    /// Signs in with a passkey of `device`.
    func logIn(device: PlatformCredentialProvider, scope: String = Authentication.defaultScope) async throws -> (
        PasskeyLoginChallenge, Credentials
    ) {
        let challenge = try await auth.passkeyLoginChallenge().start()
        let passkey = try await device.assert(
            device.createCredentialAssertionRequest(challenge: challenge.challengeData))
        return (challenge, try await auth.login(passkey: passkey, challenge: challenge, scope: scope).start())
    }
}
