import PasskeyAuthenticator
import PasskeyPKCS11
import TestSupport
import Testing
import WebAuthn

/// The sample of the PasskeyPKCS11 overview (`PasskeyPKCS11.md`), run against a SoftHSM2 token:
/// the registration it makes verifies, and its key is on the token.
@Suite struct PKCS11OverviewSampleTests {
    @Test(.temporaryDirectory) func theOverviewSampleRegistersAPasskeyWhoseKeyIsOnTheToken() async throws {
        try await SoftHSMToken.prepare()
        let temporary = try TemporaryDirectory.current
        let (module, label, pin) = (SoftHSMToken.module, SoftHSMToken.label, SoftHSMToken.pin)
        let directory = temporary.appending("store")
        let challenge = SecureRandom.bytes(32)
        let options = PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: "Example", id: "example.com"),
            user: PublicKeyCredentialUserEntityJSON(id: Base64URL([1, 2, 3]), name: "ada", displayName: "Ada"),
            challenge: Base64URL(challenge), pubKeyCredParams: [PublicKeyCredentialParameters(alg: -7)])
        let origin = try WebOrigin("https://example.com")

        // snippet.begin
        // The module, the token's label and the PIN: in use, an HSM's or TPM's; here, SoftHSM2's.
        let token = try await PKCS11Token.open(module: PKCS11Module.load(module), label: label, pin: PKCS11PIN(pin))
        let store = try await FileCredentialStore(directory: directory, custody: PKCS11KeyCustody(token: token))
        let client = WebAuthnClient(
            authenticator: SoftwareAuthenticator(
                store: store, profile: AuthenticatorProfile.platform.narrowed(for: store)))
        let registration = try await client.create(options, origin: origin)
        // snippet.end

        let verified = try RelyingParty(id: "example.com").verifyRegistration(registration, challenge: challenge)
        let onToken = try await token.publicKey(keyID: verified.credentialID, algorithm: .es256)
        #expect(onToken.bytes == verified.credentialPublicKey)
    }
}
