import Auth0Passkeys
import FoundationEssentials
import PasskeyAuthenticator
import PasskeyBrowser
import PasskeyControl
import PasskeyKit
import PasskeyTenant
import WebAuthn

// The code samples of README.md and of the DocC articles, each between snippet markers inside a
// function whose parameters stand for what the sample takes as given. They compile with the
// package; SnippetTests checks that each sample in the documents is one of these, to the letter
// (white space aside). None of them is run here: the virtual-user sample runs, in full, as
// AHundredUsersTests.

/// README: the library at a glance, virtual users.
func readmeVirtualUsers() async throws {
    // snippet.begin
    let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
    try await tenant.serving { endpoint in  // a local tenant on a free loopback port
        let auth0 = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
        // or an Auth0 tenant: Tenant(clientID: "…", domain: "login.example.com")
        let user = VirtualUser(tenant: auth0, device: VirtualDevice(store: InMemoryCredentialStore()))
        try await user.signUp(email: "ada@example.com")
        let login = try await user.logIn()  // the device's most recent passkey
        print("logged in as", login.user.sub, "with", login.passkeyUserName ?? "?")
        try await user.enroll(from: VirtualDevice(store: try await FileCredentialStore(directory: "/tmp/laptop")))
        let events = try await user.callAPI(
            .get, endpoint.baseURL + "/api/events",
            audience: tenant.configuration.apiAudience, scope: "read:events")
        print(events.status, String(decoding: events.body, as: UTF8.self))
        try await user.logOut(revoke: true)
    }
    // snippet.end
}

/// README: building blocks, the authenticator and the provider.
func readmeAuthenticator(
    dir: String, creationOptions: PublicKeyCredentialCreationOptionsJSON,
    requestOptions: PublicKeyCredentialRequestOptionsJSON, challenge: Data, userID: Data
) async throws {
    // snippet.begin
    // A virtual authenticator and the browser's part (WebAuthn L3 §5.1.3, §5.1.4)
    let store = try await FileCredentialStore(directory: dir)
    let authenticator = SoftwareAuthenticator(store: store, profile: .platform)
    let client = WebAuthnClient(authenticator: authenticator)
    let registration = try await client.create(creationOptions, origin: WebOrigin("https://example.com"))
    let assertion = try await client.get(requestOptions, origin: WebOrigin("https://example.com"))

    // An iPhone app's part: results are SignupPasskey / LoginPasskey, for Auth0's passkey flows
    let provider = PlatformCredentialProvider(relyingPartyIdentifier: "example.com", authenticator: authenticator)
    let passkey = try await provider.register(
        provider.createCredentialRegistrationRequest(challenge: challenge, name: "alice", userID: userID))
    // snippet.end
    _ = (registration, assertion, passkey)
}

/// README: building blocks, relying-party verification and the model.
func readmeRelyingParty(
    body: [UInt8], issuedChallenge: [UInt8], issued: [UInt8], user: (id: [UInt8], name: String),
    record: CredentialRecord, id: [UInt8], challenge: [UInt8], store: (CredentialRecord) -> Void,
    tpmRoots: [X509Certificate], blob: [UInt8], fidoRoot: X509Certificate, newUser: PublicKeyCredentialUserEntityJSON,
    keep: ([UInt8]) -> Void, send: ([UInt8]) -> Void
) throws {
    // snippet.begin
    // Relying-party options (WebAuthn L3 §5.4, §5.5), as py_webauthn and SimpleWebAuthn make them:
    // a random challenge to keep, the RP's algorithms in order, the user's credentials excluded
    let rp = RelyingParty(id: "example.org", origins: ["https://example.org"])
    let creation = rp.generateRegistrationOptions(
        rpName: "Example", user: newUser, excludeCredentials: [record.descriptor])
    keep(creation.challenge)  // with the session, to verify the response against
    send(WebAuthnJSON.encode(creation.options))
    let request = rp.generateAuthenticationOptions(allowCredentials: [record.descriptor], userVerification: .required)
    keep(request.challenge)
    send(WebAuthnJSON.encode(request.options))

    // Relying-party verification (WebAuthn L3 §7.1, §7.2), every attestation format of §8
    // or with attestation trust: anchors per format, or FIDO metadata verified to its root
    let strict = RelyingParty(
        ids: ["example.org"], trustAnchors: [.tpm: tpmRoots],
        metadata: try MetadataBLOB(jwt: blob, root: fidoRoot))
    let response = try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: body)
    let registration = try rp.verifyRegistration(response, challenge: issuedChallenge)
    store(registration.record(userHandle: user.id))  // credential ID, COSE key, counter, BE

    let assertion = try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: body)
    let verified = try rp.verifyAuthentication(assertion, challenge: issued, credential: record)
    // a discoverable login: the user is known only from the response, which must name them
    let login = try rp.verifyAuthentication(
        assertion, challenge: issued, credential: record, userIdentified: .byResponse)

    // Building blocks an authenticator uses
    let key = try SigningKey.generate(.es256)  // OpenSSL EVP, P-256
    let authData = AuthenticatorData(
        rpIDHash: SHA256Digest.hash(Array("example.org".utf8)), flags: [.userPresent, .userVerified],
        signCount: 0,
        attestedCredentialData: try AttestedCredentialData(aaguid: .zero, credentialID: id, publicKey: key.publicKey))
    let clientData = CollectedClientData(type: .create, challenge: challenge, origin: "https://example.org")
    let attestation = AttestationObject(format: .none, statement: [:], authenticatorData: authData)
    // snippet.end
    _ = (verified, clientData, attestation, strict, login)
}

/// README: the Auth0 client.
func readmeAuth0Client(clientID: String, store: any CredentialStore) async throws {
    // snippet.begin
    let auth = Authentication(clientId: clientID, domain: "login.example.com")
    // or a local tenant: try Authentication(clientId: tenant.clientID, baseURL: "http://127.0.0.1:41234")
    let device = PlatformCredentialProvider(
        relyingPartyIdentifier: "login.example.com", authenticator: SoftwareAuthenticator(store: store))

    // Sign up
    let signup = try await auth.passkeySignupChallenge(email: "ada@example.com").start()
    let passkey = try await device.register(
        device.createCredentialRegistrationRequest(
            challenge: signup.challengeData, name: signup.userName, userID: signup.userId))
    let credentials = try await auth.login(passkey: passkey, challenge: signup).start()

    // Log in
    let login = try await auth.passkeyLoginChallenge().start()
    let assertion = try await device.assert(device.createCredentialAssertionRequest(challenge: login.challengeData))
    let again = try await auth.login(passkey: assertion, challenge: login).start()

    // Keep, renew, get a My Account token, sign out
    let manager = CredentialsManager(authentication: auth)
    try await manager.store(credentials: again)
    let fresh = try await manager.credentials(minTTL: 60)
    let me = try await manager.apiCredentials(
        forAudience: "https://login.example.com/me/",
        scope: "create:me:authentication_methods")
    try await manager.revoke()
    // snippet.end
    _ = (credentials, fresh, me)
}

/// README: the Auth0 client, Web Auth.
func readmeWebAuth(clientID: String) async throws {
    // snippet.begin
    let auth = Authentication(clientId: clientID, domain: "login.example.com")
    let credentials = try await RedirectListener.listening { listener in
        try await WebAuth(authentication: auth)
            .redirectURL(listener.url)  // http://127.0.0.1:PORT/callback, an Allowed Callback URL
            .parameters(["screen_hint": "signup"])
            .start(using: BrowserUserAgent.system(listener))
    }
    let manager = CredentialsManager(authentication: auth, idTokenValidator: IDTokenValidator(authentication: auth))
    try await manager.store(credentials: credentials)
    // snippet.end
}

/// Auth0Passkeys.docc, SigningUpAndIn: signing up.
func articleSigningUp(clientID: String, provider: PlatformCredentialProvider) async throws {
    // snippet.begin
    let auth = Authentication(clientId: clientID, domain: "login.example.com")
    let challenge = try await auth.passkeySignupChallenge(email: "ada@example.com").start()
    let passkey = try await provider.register(
        provider.createCredentialRegistrationRequest(
            challenge: challenge.challengeData, name: challenge.userName, userID: challenge.userId))
    let credentials = try await auth.login(passkey: passkey, challenge: challenge).start()
    // snippet.end
    _ = credentials
}

/// Auth0Passkeys.docc, SigningUpAndIn: logging in.
func articleLoggingIn(auth: Authentication, provider: PlatformCredentialProvider) async throws {
    // snippet.begin
    let challenge = try await auth.passkeyLoginChallenge().start()
    let passkey = try await provider.assert(
        provider.createCredentialAssertionRequest(challenge: challenge.challengeData))
    let credentials = try await auth.login(passkey: passkey, challenge: challenge).start()
    // snippet.end
    _ = credentials
}

/// Auth0Passkeys.docc, EnrollingAPasskey: the My Account token, then the enrollment.
func articleEnrolling(manager: CredentialsManager, laptop: PlatformCredentialProvider) async throws {
    // snippet.begin
    let api = try await manager.apiCredentials(
        forAudience: "https://login.example.com/me/", scope: "create:me:authentication_methods")
    let myAccount = MyAccount(token: api.accessToken, domain: "login.example.com")
    // snippet.end
    // snippet.begin
    let challenge = try await myAccount.authenticationMethods.passkeyEnrollmentChallenge().start()
    let passkey = try await laptop.register(
        laptop.createCredentialRegistrationRequest(
            challenge: challenge.challengeData, name: challenge.userName, userID: challenge.userId))
    let method = try await myAccount.authenticationMethods.enroll(passkey: passkey, challenge: challenge).start()
    // snippet.end
    _ = method
}

/// Auth0Passkeys.docc, KeepingCredentials.
func articleKeepingCredentials(auth: Authentication, credentials: Credentials) async throws {
    // snippet.begin
    let manager = CredentialsManager(authentication: auth)
    try await manager.store(credentials: credentials)

    let current = try await manager.credentials(minTTL: 60)  // renewed with the refresh token if need be
    try await manager.revoke()  // revoke the refresh token, then forget
    // snippet.end
    _ = current
}

/// PasskeyControl's catalog: a control server for a test.
func controlServerForATest() async throws {
    // snippet.begin
    let token = ControlToken.random()
    try await ControlServer(service: ControlService(), token: token).serving { endpoint in
        // POST endpoint.url + "/session" with "Authorization: Bearer \(token.value)"
    }
    // snippet.end
}

/// DocC: moving a password user to passkeys (Auth0.swift's database connection calls).
func docPasswordUser(auth: Authentication, password: String) async throws {
    // snippet.begin
    let user = try await auth.signup(
        email: "ada@example.com", password: password, connection: "Username-Password-Authentication",
        userMetadata: ["plan": "trial"]
    ).start()
    let credentials = try await auth.login(
        usernameOrEmail: user.email, password: password, realmOrConnection: "Username-Password-Authentication",
        scope: "openid profile email offline_access"
    ).start()
    // snippet.end
    _ = credentials
}
