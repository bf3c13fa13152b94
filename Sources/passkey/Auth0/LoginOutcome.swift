import Auth0Passkeys
import PasskeyAuthenticator
import WebAuthn

/// What `passkey login` reports.
struct LoginOutcome: Encodable {
    let session: SessionReport
    let credentialID: String
    /// The account name stored with the passkey.
    let passkeyUser: String?
    let rpID: String
    /// How many passkeys the store holds for the RP ID.
    let candidates: Int
    /// Whether the most recent of several was taken because no `--user` or `--credential` said.
    let pickedMostRecent: Bool

    enum CodingKeys: String, CodingKey {
        case session, candidates
        case credentialID = "credential_id"
        case passkeyUser = "passkey_user"
        case rpID = "rp_id"
        case pickedMostRecent = "picked_most_recent"
    }

    var text: String {
        var lines = ["Logged in as \(session.user.text) with passkey \(credentialID) for \(rpID)."]
        if pickedMostRecent {
            lines.append(
                "The store holds \(candidates) passkeys for \(rpID); the most recent (\(passkeyUser ?? "?")) was used. "
                    + "Pick another with --user NAME or --credential ID.")
        }
        lines.append(session.details)
        return lines.joined(separator: "\n")
    }
}

extension Auth0Flows {
    /// Logs in with a discoverable passkey: the login challenge (spec §2), an assertion by the
    /// passkey `choice` picks, the webauthn grant (spec §3), and the credentials kept as the
    /// session.
    func logIn(
        choice: AccountChoice, device: DeviceOptions, store: any CredentialStore, showTokens: Bool
    ) async throws -> LoginOutcome {
        let challenge = try await authentication.passkeyLoginChallenge(
            connection: settings.connection, organization: settings.organization
        ).start()
        let rpID = challenge.relyingPartyId
        let authenticator = try device.authenticator(store: store, accountChoice: choice)
        let response = try await WebAuthnClient(authenticator: authenticator).get(
            challenge.options, origin: try device.origin(rpID: rpID))
        let passkey: PlatformCredentialAssertion
        do {
            passkey = try PlatformCredentialAssertion(response)
        } catch {
            throw WebAuthnClientError(.notAllowed, "the passkey returned no user handle")
        }
        let credentials = try await authentication.login(
            passkey: passkey, challenge: challenge, connection: settings.connection, audience: settings.audience,
            scope: settings.scope, organization: settings.organization
        ).start()
        let user = try await startSession(credentials)
        let summaries = (try? await store.summaries(rpID: rpID)) ?? []
        return LoginOutcome(
            session: SessionReport(user: user, credentials: credentials, showTokens: showTokens),
            credentialID: response.id,
            passkeyUser: summaries.first { $0.id == Array(passkey.credentialID) }?.userName, rpID: rpID,
            candidates: summaries.count, pickedMostRecent: choice == .mostRecent && summaries.count > 1)
    }
}
