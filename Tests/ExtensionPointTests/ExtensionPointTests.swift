import Auth0Passkeys
import FoundationEssentials
import Hummingbird
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import Testing
import WebAuthn

/// The Auth0 client's extension points, `HTTPTransport` and `CredentialsStorage`, implemented from a
/// target that sees public API only (`packageAccess: false`, no `@testable import`): a transport
/// that routes to the local tenant's router in process, one that records the exchanges of another,
/// and a storage with a lock of its own.
@Suite struct ExtensionPointTests {
    /// Runs `body` with a fresh tenant and a transport to its router: no socket, no port.
    func inProcess<Value: Sendable>(
        _ body: @Sendable (PasskeyTenant, RouterTransport) async throws -> Value
    ) async throws -> Value {
        let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
        return try await tenant.application(port: 0).test(.router) { client in
            #expect(client.port == nil)
            return try await body(tenant, RouterTransport(client: client))
        }
    }

    /// A device: the software authenticator with an in-memory store, behind the platform provider,
    /// for the tenant's RP ID.
    static func device() -> PlatformCredentialProvider {
        PlatformCredentialProvider(
            relyingPartyIdentifier: "localhost", authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore()))
    }

    /// Signs a new user up with a new passkey of `device`.
    static func signUp(_ email: String, with auth: Authentication, device: PlatformCredentialProvider) async throws
        -> Credentials
    {
        let challenge = try await auth.passkeySignupChallenge(email: email, name: "Ada Lovelace").start()
        let passkey = try await device.register(
            device.createCredentialRegistrationRequest(
                challenge: challenge.challengeData, name: challenge.userName, userID: challenge.userId))
        return try await auth.login(passkey: passkey, challenge: challenge).start()
    }

    @Test func signUpLogInAndRenewThroughAnInProcessTransport() async throws {
        try await inProcess { tenant, transport in
            let auth = try Authentication(clientId: tenant.clientID, baseURL: "https://localhost", transport: transport)
            let device = Self.device()
            let signedUp = try await Self.signUp("ada@example.com", with: auth, device: device)
            #expect(!signedUp.accessToken.isEmpty && signedUp.refreshToken != nil)

            let challenge = try await auth.passkeyLoginChallenge().start()
            let passkey = try await device.assert(
                device.createCredentialAssertionRequest(challenge: challenge.challengeData))
            let loggedIn = try await auth.login(passkey: passkey, challenge: challenge).start()
            #expect(loggedIn.tokenType == "Bearer")
            #expect(try await auth.userInfo(withAccessToken: loggedIn.accessToken).start().email == "ada@example.com")

            let storage = LockingStorage()
            let manager = CredentialsManager(authentication: auth, storage: storage)
            try await manager.store(credentials: loggedIn)
            #expect(await manager.user?.email == "ada@example.com")
            #expect(try await manager.credentials().accessToken == loggedIn.accessToken)

            #expect(storage.locks == 0, "current credentials are read without the lock")
            let renewed = try await manager.renew()
            #expect(storage.locks == 1, "a renewal holds the storage's lock")
            #expect(try await manager.storedAPICredentials().isEmpty)
            #expect(renewed.accessToken != loggedIn.accessToken)
            #expect(renewed.refreshToken != nil)
            let current = try await manager.credentials()
            #expect(current.accessToken == renewed.accessToken && current.refreshToken == renewed.refreshToken)
            // The stored expiry went through seconds since 1970 and back: equal to the microsecond.
            #expect(abs(current.expiresAt.timeIntervalSince(renewed.expiresAt)) < 0.000_001)
            let user = try await auth.userInfo(withAccessToken: renewed.accessToken).start()
            #expect(await manager.user?.sub == user.sub)
        }
    }

    @Test func aRecordingTransportSeesEachExchangeOfASignup() async throws {
        try await inProcess { tenant, transport in
            let recorder = RecordingTransport(transport)
            let auth = try Authentication(clientId: tenant.clientID, baseURL: "https://localhost", transport: recorder)
            _ = try await Self.signUp("grace@example.com", with: auth, device: Self.device())
            #expect(
                recorder.exchanges == [
                    .init(method: "POST", path: "/passkey/register", status: 200),
                    .init(method: "POST", path: "/oauth/token", status: 200),
                ])
        }
    }

    @Test func routerTargets() {
        #expect(RouterTransport.target(of: "https://localhost/oauth/token") == "/oauth/token")
        #expect(RouterTransport.target(of: "https://localhost/userinfo?a=1#f") == "/userinfo?a=1")
        #expect(RouterTransport.target(of: "http://127.0.0.1:8080") == "/")
    }
}
