import PasskeyAuthenticator
import Testing
import WebAuthn

/// The software authenticator answers options a ``RelyingParty`` generated, and the same relying
/// party verifies the answers: the sample of the WebAuthn article "Generating options", run.
@Suite struct GeneratedOptionsCeremonyTests {
    @Test func aPasskeyRegistersAndSignsInAgainstGeneratedOptions() async throws {
        let client = WebAuthnClient(
            authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .platform))
        // snippet.begin
        let rp = RelyingParty(id: "example.com")
        let user = PublicKeyCredentialUserEntityJSON(
            id: Base64URL(SecureRandom.bytes(32)), name: "ada@example.com", displayName: "Ada")
        let registration = rp.generateRegistrationOptions(rpName: "Example", user: user)
        // The page hands registration.options to navigator.credentials.create(); the answer comes back
        let response = try await client.create(registration.options, origin: WebOrigin("https://example.com"))
        let verified = try rp.verifyRegistration(response, challenge: registration.challenge)
        let record = verified.record(userHandle: user.id.bytes, transports: response.response.transports)

        let login = rp.generateAuthenticationOptions(allowCredentials: [record.descriptor])
        let assertion = try await client.get(login.options, origin: WebOrigin("https://example.com"))
        let signedIn = try rp.verifyAuthentication(
            assertion, challenge: login.challenge, credential: record, allowCredentials: [record.id])
        // snippet.end
        #expect(response.clientExtensionResults.credProps?.rk == true)
        #expect(record.transports == [.hybrid, .internal])
        #expect(signedIn.credentialID == verified.credentialID)
        #expect(signedIn.userVerified)
    }

    /// An authenticator holding a credential of the exclude list refuses to make another
    /// (WebAuthn L3 §6.3.2 step 3), and a discoverable login needs no allow list.
    @Test func theExcludeListStopsASecondPasskeyAndADiscoverableLoginFindsTheFirst() async throws {
        let client = WebAuthnClient(
            authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .platform))
        let origin = try WebOrigin("https://example.com")
        let rp = RelyingParty(id: "example.com", allowedAlgorithms: [.eddsa, .es256])
        let user = PublicKeyCredentialUserEntityJSON(id: Base64URL([7, 7, 7]), name: "ada", displayName: "Ada")
        let first = rp.generateRegistrationOptions(rpName: "Example", user: user, residentKey: .required)
        let response = try await client.create(first.options, origin: origin)
        let verified = try rp.verifyRegistration(response, challenge: first.challenge)
        #expect(verified.algorithm == .eddsa)
        let record = verified.record(userHandle: user.id.bytes, transports: response.response.transports)

        let second = rp.generateRegistrationOptions(
            rpName: "Example", user: user, excludeCredentials: [record.descriptor])
        await #expect(throws: WebAuthnClientError(.invalidState, "")) {
            try await client.create(second.options, origin: origin)
        }

        let login = rp.generateAuthenticationOptions()
        let assertion = try await client.get(login.options, origin: origin)
        let signedIn = try rp.verifyAuthentication(
            assertion, challenge: login.challenge, credential: record, userIdentified: .byResponse)
        #expect(signedIn.credentialID == record.id)
    }
}
