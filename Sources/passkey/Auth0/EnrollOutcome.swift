import Auth0Passkeys
import PasskeyAuthenticator
import WebAuthn

/// What `passkey enroll` reports.
struct EnrollOutcome: Encodable {
    let methodID: String
    let credentialID: String
    let rpID: String
    let user: SessionReport.User
    let deviceType: String

    enum CodingKeys: String, CodingKey {
        case user
        case methodID = "authentication_method_id"
        case credentialID = "credential_id"
        case rpID = "rp_id"
        case deviceType = "device_type"
    }

    var text: String {
        "Enrolled passkey \(credentialID) for \(user.text) on \(rpID) (\(deviceType)); "
            + "authentication method \(methodID)."
    }
}

extension Auth0Flows {
    /// Enrolls another passkey for the signed-in user through My Account (spec §5): a My Account
    /// token from the session's refresh token, the enrollment challenge, a new passkey from
    /// `device` over `store`, and its verification. A refused passkey is deleted again, as in
    /// ``signUp(_:device:store:showTokens:)``.
    ///
    /// An authenticator keeps one discoverable passkey per account and RP ID: a new one replaces
    /// the old (CTAP 2.1 §6.1.2 step 17), which the tenant would still list. So a store that holds a
    /// passkey of this user is refused before anything is created.
    func enroll(device: DeviceOptions, store: any CredentialStore) async throws -> EnrollOutcome {
        let user = try await storedUser()
        let account = try await myAccount(scope: Self.enrollScope)
        let challenge = try await account.authenticationMethods.passkeyEnrollmentChallenge(
            connection: settings.connection
        ).start()
        let held = try await store.summaries(rpID: challenge.relyingPartyId)
        if held.contains(where: { $0.userHandle == Array(challenge.userId) && $0.discoverable }) {
            throw FlowFailure(
                step: "enroll", code: "already_enrolled_here",
                description: "this store already holds a passkey of the user for \(challenge.relyingPartyId)",
                hint: "enroll from another device: --store DIR of another store")
        }
        let authenticator = try device.authenticator(store: store)
        let response = try await WebAuthnClient(authenticator: authenticator).create(
            challenge.options, origin: try device.origin(rpID: challenge.relyingPartyId))
        let passkey = PlatformCredentialRegistration(response)
        let method = try await forgettingRefused(passkey.credentialID, in: store) { () async throws(MyAccountError) in
            try await account.authenticationMethods.enroll(passkey: passkey, challenge: challenge).start()
        }
        return EnrollOutcome(
            methodID: method.id, credentialID: response.id, rpID: method.relyingPartyIdentifier,
            user: SessionReport.User(user), deviceType: method.credential.deviceType.rawValue)
    }
}
