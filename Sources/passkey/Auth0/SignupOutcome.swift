import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import WebAuthn

/// The profile a signup sends (auth0-passkey-api.md §1.1 `user_profile`).
struct SignupProfile: Sendable {
    var email: String?
    var name: String?
    var phoneNumber: String?
    var username: String?
}

/// What `passkey signup` reports.
struct SignupOutcome: Encodable {
    let session: SessionReport
    let credentialID: String
    let rpID: String
    /// The passkey's registration response, for `passkey demo` to inspect; not printed.
    let response: RegistrationResponseJSON

    enum CodingKeys: String, CodingKey {
        case session, rpID = "rp_id", credentialID = "credential_id"
    }

    var text: String {
        "Signed up \(session.user.text) with a new passkey \(credentialID) for \(rpID).\n\(session.details)"
    }
}

extension Auth0Flows {
    /// Signs a new user up: the signup challenge (spec §1), a new passkey from `device` over
    /// `store`, the webauthn grant (spec §3), and the credentials kept as the session.
    ///
    /// When the tenant refuses the grant (4xx), the new passkey is deleted again: the
    /// relying party does not know it, as WebAuthn L3 §5.1.10 `signalUnknownCredential` would
    /// tell the authenticator. With no answer at all (the network failed) it is kept, since the
    /// tenant may have accepted it.
    func signUp(
        _ profile: SignupProfile, device: DeviceOptions, store: any CredentialStore, showTokens: Bool
    ) async throws -> SignupOutcome {
        let challenge = try await authentication.passkeySignupChallenge(
            email: profile.email, phoneNumber: profile.phoneNumber, username: profile.username, name: profile.name,
            connection: settings.connection, organization: settings.organization
        ).start()
        let authenticator = try device.authenticator(store: store)
        let response = try await WebAuthnClient(authenticator: authenticator).create(
            challenge.options, origin: try device.origin(rpID: challenge.relyingPartyId))
        let passkey = PlatformCredentialRegistration(response)
        let credentials = try await forgettingRefused(passkey.credentialID, in: store) {
            () async throws(AuthenticationError) in
            try await authentication.login(
                passkey: passkey, challenge: challenge, connection: settings.connection, audience: settings.audience,
                scope: settings.scope, organization: settings.organization
            ).start()
        }
        let user = try await startSession(credentials)
        return SignupOutcome(
            session: SessionReport(user: user, credentials: credentials, showTokens: showTokens),
            credentialID: response.id, rpID: challenge.relyingPartyId, response: response)
    }

    /// Runs `body`, which sends a new passkey to the tenant; when the tenant refuses it (an
    /// answer with a 4xx status), deletes the passkey from `store` and rethrows.
    func forgettingRefused<Value, Failure: Auth0APIError>(
        _ credentialID: Data, in store: any CredentialStore, _ body: () async throws(Failure) -> Value
    ) async throws -> Value {
        do {
            return try await body()
        } catch  where (400..<500).contains(error.statusCode) {
            try? await store.delete(id: Array(credentialID))
            throw error
        }
    }
}
