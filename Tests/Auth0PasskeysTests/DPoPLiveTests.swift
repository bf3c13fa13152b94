import Auth0Passkeys
import FoundationEssentials
import InMemoryLogging
import Logging
import PasskeyAuthenticator
import PasskeyTenant
import Synchronization
import TestSupport
import Testing
import WebAuthn

/// DPoP end to end (RFC 9449; auth0-passkey-api.md §16): the local tenant on a loopback port,
/// the real `CurlTransport`, a software authenticator. Tokens come back bound to the session's
/// key, `/userinfo` and My Account take them with proofs, a later process renews with the key
/// sealed in the session's file, and the nonce dance happens when the tenant asks for it.
@Suite struct DPoPLiveTests {
    /// A tenant that requires proofs (and nonces when asked), and a DPoP client for it whose
    /// exchanges are recorded.
    private struct DPoPTenant {
        let tenant: PasskeyTenant
        let baseURL: String
        let transport: RecordingTransport
        let auth: Authentication
        let dpop: DPoP

        static func run(
            nonces: Bool = false, _ body: @Sendable (DPoPTenant) async throws -> Void
        ) async throws {
            var configuration = TenantConfiguration()
            configuration.requireProofOfPossession = true
            configuration.requiresDPoPNonce = nonces
            let tenant = try await TestTenant.open(configuration: configuration)
            try await TestTenant.serve(tenant) { _, baseURL in
                let transport = RecordingTransport()
                let dpop = DPoP()
                let auth = try Authentication(clientId: tenant.clientID, baseURL: baseURL, transport: transport)
                try await body(
                    DPoPTenant(
                        tenant: tenant, baseURL: baseURL, transport: transport, auth: auth.useDPoP(dpop), dpop: dpop))
            }
        }

        /// Signs a new user up with the DPoP client.
        func signUp(_ email: String) async throws -> Credentials {
            try await LiveTenant(tenant: tenant, auth: auth, baseURL: baseURL, logger: nil)
                .signUp(email, device: LiveTenant.device()).1
        }
    }

    /// The `cnf.jkt` of an access token.
    private func boundThumbprint(_ accessToken: String) throws -> String? {
        let parts = accessToken.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let claims = try JSONDecoder().decode([String: JSONValue].self, from: Data(Base64URL.decode(parts[1])))
        return claims["cnf"]?.objectValue?["jkt"]?.stringValue
    }

    @Test func aDPoPLoginIsBoundAndUserinfoAndMyAccountTakeItsProofs() async throws {
        try await DPoPTenant.run { live in
            let credentials = try await live.signUp("ada@example.com")
            #expect(credentials.tokenType == "DPoP")
            let thumbprint = try #require(live.dpop.thumbprint)
            #expect(try boundThumbprint(credentials.accessToken) == thumbprint)
            let grant = try #require(live.transport.requests.last { $0.path == "/oauth/token" })
            #expect(grant.header("DPoP") != nil)
            #expect(live.transport.requests.first { $0.path == "/passkey/register" }?.header("DPoP") == nil)

            let user = try await live.auth.userInfo(
                withAccessToken: credentials.accessToken, tokenType: credentials.tokenType
            ).start()
            #expect(user.email == "ada@example.com")
            let userinfo = try #require(live.transport.requests.last)
            #expect(userinfo.header("Authorization") == "DPoP \(credentials.accessToken)")
            #expect(try DecodedProof(#require(userinfo.header("DPoP"))).payload["ath"]?.stringValue != nil)

            // The same token as Bearer, or with a proof of another key, is refused (RFC 9449 §7).
            let bearer = await #expect(throws: AuthenticationError.self) {
                try await live.auth.userInfo(withAccessToken: credentials.accessToken).start()
            }
            #expect(bearer?.statusCode == 401)
            let otherKey = await #expect(throws: AuthenticationError.self) {
                try await live.auth.useDPoP(DPoP(key: DPoPKey.generate()))
                    .userInfo(withAccessToken: credentials.accessToken, tokenType: "DPoP").start()
            }
            #expect(otherKey?.statusCode == 401)

            let manager = CredentialsManager(authentication: live.auth, storage: InMemoryCredentialsStorage())
            try await manager.store(credentials: credentials)
            let api = try await manager.apiCredentials(
                forAudience: live.tenant.configuration.myAccountAudience, scope: "read:me:authentication_methods")
            #expect(api.tokenType == "DPoP")
            #expect(try boundThumbprint(api.accessToken) == thumbprint)
            let methods = try await MyAccount(
                token: api.accessToken, baseURL: live.baseURL, tokenType: api.tokenType, transport: live.transport
            ).useDPoP(manager.dpop).authenticationMethods.getAuthenticationMethods(type: "passkey").start()
            #expect(methods.count == 1)
            #expect(live.transport.requests.last?.header("DPoP") != nil)
        }
    }

    /// STYLE §5: at `trace`, no token, proof or key of a DPoP session reaches a log.
    @Test func noTokenProofOrKeyReachesTheTrace() async throws {
        try await DPoPTenant.run(nonces: true) { live in
            let logs = InMemoryLogHandler()
            var logger = Logger(label: "test", factory: { _ in logs })
            logger.logLevel = .trace
            let dpop = DPoP()
            let auth = try Authentication(
                clientId: live.tenant.clientID, baseURL: live.baseURL, transport: live.transport, logger: logger
            ).useDPoP(dpop)
            let device = LiveTenant.device()
            let challenge = try await auth.passkeySignupChallenge(email: "ada@example.com").start()
            let passkey = try await device.register(
                device.createCredentialRegistrationRequest(
                    challenge: challenge.challengeData, name: challenge.userName, userID: challenge.userId))
            let credentials = try await auth.login(passkey: passkey, challenge: challenge).start()
            let manager = CredentialsManager(authentication: auth, storage: InMemoryCredentialsStorage())
            try await manager.store(credentials: credentials)
            let renewed = try await manager.renew()
            _ = try await auth.userInfo(withAccessToken: renewed.accessToken, tokenType: renewed.tokenType).start()

            let texts = logs.entries.map { "\($0.message) \($0.metadata)" }
            #expect(texts.contains { $0.contains("DPoP: <redacted>") })
            let key = try #require(dpop.key)
            let proofs = live.transport.requests.compactMap { $0.header("DPoP") }
            #expect(proofs.count >= 4)
            let secrets =
                [credentials.accessToken, renewed.accessToken, Base64URL.encode(key.rawRepresentation)]
                + [credentials.refreshToken, renewed.refreshToken].compactMap { $0 }
                + proofs.flatMap { $0.split(separator: ".").suffix(2).map(String.init) }
            for secret in secrets {
                #expect(!texts.contains { $0.contains(secret) })
            }
            let proof = try await DPoPProof(key: key, method: "GET", url: live.baseURL)
            #expect(!"\(proof)".contains(proof.compact))
            #expect(!"\(key)".contains(Base64URL.encode(key.rawRepresentation)))
        }
    }

    /// The sample of the BindingTokensWithDPoP article.
    @Test func theArticlesSample() async throws {
        try await DPoPTenant.run { live in
            let auth = try Authentication(clientId: live.tenant.clientID, baseURL: live.baseURL)
            let storage = InMemoryCredentialsStorage()
            let device = LiveTenant.device()
            let signup = try await auth.passkeySignupChallenge(email: "ada@example.com").start()
            _ = try await auth.useDPoP().login(
                passkey: try await device.register(
                    device.createCredentialRegistrationRequest(
                        challenge: signup.challengeData, name: signup.userName, userID: signup.userId)),
                challenge: signup
            ).start()
            let challenge = try await auth.passkeyLoginChallenge().start()
            let passkey = try await device.assert(
                device.createCredentialAssertionRequest(challenge: challenge.challengeData))
            // snippet.begin
            let dpopAuth = auth.useDPoP()
            let credentials = try await dpopAuth.login(passkey: passkey, challenge: challenge).start()
            let manager = CredentialsManager(authentication: dpopAuth, storage: storage)
            try await manager.store(credentials: credentials)

            // Later, in this process or in another one over the same storage:
            let current = try await manager.credentials(minTTL: 60)
            let user = try await auth.useDPoP(manager.dpop)
                .userInfo(withAccessToken: current.accessToken, tokenType: current.tokenType).start()
            // snippet.end
            #expect(credentials.tokenType == "DPoP")
            #expect(user.email == "ada@example.com")
        }
    }

    @Test func aLaterProcessRenewsWithTheKeySealedInTheSessionFile() async throws {
        let directory = try TemporaryDirectory()
        let sealing = CredentialsSealing.keyFile(directory.appending("keys/storage.key"))
        try await DPoPTenant.run { live in
            let credentials = try await live.signUp("grace@example.com")
            let first = CredentialsManager(
                authentication: live.auth,
                storage: FileCredentialsStorage(directory: directory.appending("sessions"), sealing: sealing))
            try await first.store(credentials: credentials)

            // Another process: a new storage over the same files, a client that never heard of DPoP.
            let plain = try Authentication(
                clientId: live.tenant.clientID, baseURL: live.baseURL, transport: live.transport)
            let later = CredentialsManager(
                authentication: plain,
                storage: FileCredentialsStorage(directory: directory.appending("sessions"), sealing: sealing))
            let renewed = try await later.renew()
            #expect(renewed.tokenType == "DPoP")
            #expect(renewed.accessToken != credentials.accessToken)
            #expect(later.dpop.thumbprint == live.dpop.thumbprint)
            #expect(try boundThumbprint(renewed.accessToken) == live.dpop.thumbprint)
            let user = try await plain.useDPoP(later.dpop).userInfo(
                withAccessToken: renewed.accessToken, tokenType: renewed.tokenType
            ).start()
            #expect(user.email == "grace@example.com")

            // The refresh token is bound: without the key (another key made for it), no renewal.
            let stolen = try #require(renewed.refreshToken)
            let refused = await #expect(throws: AuthenticationError.self) {
                try await plain.useDPoP(DPoP(key: DPoPKey.generate())).renew(withRefreshToken: stolen).start()
            }
            #expect(refused?.statusCode == 400)

            try await later.clear()
            #expect(later.dpop.key == nil)
            let fresh = CredentialsManager(
                authentication: plain,
                storage: FileCredentialsStorage(directory: directory.appending("sessions"), sealing: sealing))
            await #expect(throws: CredentialsManagerError(.noCredentials, "")) { try await fresh.renew() }
            #expect(fresh.dpop.key == nil)
        }
    }

    @Test func theNonceDanceAtTheTokenEndpointAndAtUserinfo() async throws {
        try await DPoPTenant.run(nonces: true) { live in
            let credentials = try await live.signUp("nonce@example.com")
            #expect(credentials.tokenType == "DPoP")
            let grants = live.transport.exchanges.filter { $0.request.path == "/oauth/token" }
            #expect(grants.map(\.response.status) == [400, 200])
            #expect(try DecodedProof(#require(grants[0].request.header("DPoP"))).payload["nonce"] == nil)
            #expect(grants[0].response.header("DPoP-Nonce") != nil)
            let second = try DecodedProof(#require(grants[1].request.header("DPoP")))
            #expect(second.payload["nonce"]?.stringValue == grants[0].response.header("DPoP-Nonce"))

            // The client keeps the latest nonce: the next call needs no second try.
            let before = live.transport.exchanges.count
            _ = try await live.auth.userInfo(withAccessToken: credentials.accessToken, tokenType: "DPoP").start()
            #expect(live.transport.exchanges.count == before + 1)

            // A client with the key but no nonce (a new process) meets the resource server's challenge once.
            let key = try #require(live.dpop.key)
            let user = try await live.auth.useDPoP(DPoP(key: key))
                .userInfo(withAccessToken: credentials.accessToken, tokenType: "DPoP").start()
            #expect(user.email == "nonce@example.com")
            let userinfo = live.transport.exchanges.suffix(2)
            #expect(userinfo.map(\.response.status) == [401, 200])
            let challenge = try #require(userinfo.first?.response.header("WWW-Authenticate"))
            #expect(challenge.hasPrefix("DPoP ") && challenge.contains(#"error="use_dpop_nonce""#))
        }
    }
}

/// Sends through libcurl and keeps every exchange.
final class RecordingTransport: HTTPTransport {
    private let base = CurlTransport()
    private let recorded = Mutex<[(request: HTTPRequest, response: HTTPResponse)]>([])

    var exchanges: [(request: HTTPRequest, response: HTTPResponse)] { recorded.withLock { $0 } }
    var requests: [HTTPRequest] { exchanges.map(\.request) }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let response = try await base.send(request)
        recorded.withLock { $0.append((request, response)) }
        return response
    }
}
