import Foundation
import PasskeyAuthenticator
import Testing
import WebAuthn

@Suite struct PlatformCredentialProviderTests {
    @Test func registrationAndAssertionCarryTheNativeOriginAndVerify() async throws {
        let provider = PlatformCredentialProvider(
            relyingPartyIdentifier: "login.example.com",
            authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore()))
        let challenge = Data(SecureRandom.bytes(32))
        let userID = Data("auth0|user-1".utf8)
        let registration = try await provider.register(
            provider.createCredentialRegistrationRequest(
                challenge: challenge, name: "alice@example.com", userID: userID))
        let signup: any SignupPasskey = registration
        #expect(signup.attachment == .platform)
        let relyingParty = RelyingParty(id: "login.example.com")
        let verified = try relyingParty.verifyRegistration(
            clientDataJSON: Array(signup.rawClientDataJSON), attestationObject: Array(signup.rawAttestationObject),
            challenge: Array(challenge))
        #expect(verified.clientData.origin == "https://login.example.com")
        #expect(verified.credentialID == Array(signup.credentialID))

        let loginChallenge = Data(SecureRandom.bytes(32))
        let login: any LoginPasskey = try await provider.assert(
            provider.createCredentialAssertionRequest(challenge: loginChallenge))
        #expect(login.userID == userID)
        #expect(login.credentialID == signup.credentialID)
        _ = try relyingParty.verifyAuthentication(
            credentialID: Array(login.credentialID), clientDataJSON: Array(login.rawClientDataJSON),
            authenticatorData: Array(login.rawAuthenticatorData), signature: Array(login.signature),
            userHandle: Array(login.userID), challenge: Array(loginChallenge),
            credential: verified.record(userHandle: Array(userID)))
    }

    @Test func anAssertionWithNoPasskeyIsNotAllowed() async throws {
        let provider = PlatformCredentialProvider(
            relyingPartyIdentifier: "example.com",
            authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore()))
        await #expect(throws: WebAuthnClientError(.notAllowed, "")) {
            try await provider.assert(provider.createCredentialAssertionRequest(challenge: Data([1, 2, 3])))
        }
    }
}
