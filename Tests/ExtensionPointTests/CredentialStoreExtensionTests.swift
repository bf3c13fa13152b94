import Auth0Passkeys
import FoundationEssentials
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// The authenticator's extension point, `CredentialStore`, implemented from a target that sees
/// public API only: a store whose keys live in a key holder under opaque handles, as an HSM's do.
@Suite struct CredentialStoreExtensionTests {
    static let origin = try! WebOrigin("https://example.org")  // A constant, valid origin.
    static let relyingParty = RelyingParty(id: "example.org", origins: ["https://example.org"])

    /// Creation options of example.org for user `ada` (handle 1 2 3), asking for `algorithm`.
    static func creationOptions(challenge: [UInt8], algorithm: COSEAlgorithm) throws
        -> PublicKeyCredentialCreationOptionsJSON
    {
        try WebAuthnJSON.decode(
            PublicKeyCredentialCreationOptionsJSON.self,
            from: Array(
                """
                {"rp": {"id": "example.org", "name": "Example"},
                 "user": {"id": "AQID", "name": "ada", "displayName": "Ada"},
                 "challenge": "\(Base64URL.encode(challenge))",
                 "pubKeyCredParams": [{"type": "public-key", "alg": \(algorithm.rawValue)}]}
                """.utf8))
    }

    @Test(arguments: [AuthenticatorProfile.platform, .securityKey], [COSEAlgorithm.es256, .eddsa])
    func registrationsAndAssertionsVerify(profile: AuthenticatorProfile, algorithm: COSEAlgorithm) async throws {
        let store = HandleStore(holder: KeyHolder())
        let client = WebAuthnClient(authenticator: SoftwareAuthenticator(store: store, profile: profile))
        let challenge = SecureRandom.bytes(32)
        let created = try await client.create(
            Self.creationOptions(challenge: challenge, algorithm: algorithm), origin: Self.origin)
        let registration = try Self.relyingParty.verifyRegistration(created, challenge: challenge)
        let stored = try #require(try await store.all().credentials.first)
        #expect(stored.privateKeyBlob.count == 8, "the record holds a handle, not a key")

        var record = registration.record(userHandle: [1, 2, 3])
        for _ in 0..<2 {
            let assertionChallenge = SecureRandom.bytes(32)
            let asserted = try await client.get(
                try WebAuthnJSON.decode(
                    PublicKeyCredentialRequestOptionsJSON.self,
                    from: Array(
                        """
                        {"challenge": "\(Base64URL.encode(assertionChallenge))", "rpId": "example.org",
                         "allowCredentials": [{"type": "public-key", "id": "\(created.id)"}]}
                        """.utf8)),
                origin: Self.origin)
            let verified = try Self.relyingParty.verifyAuthentication(
                asserted, challenge: assertionChallenge, credential: record)
            record.signCount = verified.signCount
        }
    }

    @Test func aStoreThatCannotTakeAKeyInRefusesSeededMode() async throws {
        let store = HandleStore(holder: KeyHolder())
        let seeded = SoftwareAuthenticator(store: store, seed: try Seed(hex: String(repeating: "ab", count: 32)))
        let error = await #expect(throws: WebAuthnClientError.self) {
            try await VirtualDevice(authenticator: seeded).create(
                Self.creationOptions(challenge: [UInt8](repeating: 0, count: 16), algorithm: .es256),
                rpID: "example.org")
        }
        #expect(error?.authenticatorError?.storeError?.code == .unsupported)
        #expect(try await store.all().credentials.isEmpty)
    }

    /// Both extension points at once: virtual users of PasskeyKit whose passkeys live in the handle
    /// store, talking to the tenant through a transport that routes to its router in process.
    @Test func virtualUsersSignUpAndLogInWithHandleStoresInProcess() async throws {
        let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
        try await tenant.application(port: 0).test(.router) { client in
            let connection = try Tenant(
                clientID: tenant.clientID, baseURL: "https://localhost", transport: RouterTransport(client: client))
            for index in 0..<3 {
                let user = VirtualUser(
                    tenant: connection, device: VirtualDevice(store: HandleStore(holder: KeyHolder())))
                let signup = try await user.signUp(email: "user\(index)@example.com")
                let login = try await user.logIn()
                #expect(login.user.sub == signup.user.sub && login.credentialID == signup.credentialID)
                let events = try await user.callAPI(
                    .get, "https://localhost/api/events", audience: tenant.configuration.apiAudience,
                    scope: "read:events")
                #expect(events.status == 200)
            }
        }
    }
}
