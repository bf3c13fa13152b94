public import Auth0Passkeys
import PasskeyAuthenticator
import WebAuthn

extension VirtualUser {
    /// Seeds the user: a passkey made on the device, the user created through the Management API
    /// (or found by email), and the passkey attached to them (auth0-passkey-api.md §15), with no
    /// signup ceremony. The user then logs in natively, ``logIn(choosing:on:)``, like one who
    /// signed up.
    ///
    /// What it does, in order:
    /// 1. the RP ID: `rpID`, else the one a login challenge names (§2);
    /// 2. `GET /api/v2/users-by-email` with the email lower-cased (Auth0 keeps database emails so),
    ///    and the user of the tenant's connection if there is one, else `POST /api/v2/users`
    ///    with the connection (``Tenant/connection``, else `Username-Password-Authentication`),
    ///    the email (verified) and the name;
    /// 3. the user handle: that of the user's passkeys when they have some, so the account keeps
    ///    one (WebAuthn L3 §14.6.1), else 32 random bytes;
    /// 4. a discoverable passkey on the device for the RP ID and that handle (WebAuthn L3 §5.1.3,
    ///    the origin a native app's), the user's other passkeys excluded, so a device that holds
    ///    one already refuses (`InvalidStateError`) rather than replace it;
    /// 5. `POST /api/v2/users/{id}/authentication-methods` with its credential ID, COSE key,
    ///    handle, AAGUID, RP ID, device type and backup state (the BE and BS flags) and
    ///    transports. A passkey the tenant refuses is deleted from the device again.
    ///
    /// No session is started: the user's stored session, if any, is left as it is.
    ///
    /// ```swift
    /// let management = try await tenant.managementAPI(clientID: m2mClientID, clientSecret: secret)
    /// let user = VirtualUser(tenant: tenant, device: VirtualDevice(store: InMemoryCredentialStore()))
    /// try await user.seed(email: "ada@example.com", using: management)
    /// let login = try await user.logIn()
    /// ```
    ///
    /// - Parameters:
    ///   - email: the user's email.
    ///   - name: the user's full name, for a new user and the passkey's display name.
    ///   - rpID: the tenant's RP ID; asked of the tenant when `nil` (one more request).
    ///   - device: the device to make the passkey on; the user's own by default.
    ///   - management: the tenant's Management API (``Tenant/managementAPI(clientID:clientSecret:audience:)``).
    /// - Returns: the user, the attached method and the registration.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/management(_:)`` (the Management API
    ///   refused: a missing scope, a duplicate passkey; or did not answer),
    ///   ``PasskeyFlowError/authentication(_:)`` (no login challenge for the RP ID),
    ///   ``PasskeyFlowError/device(_:)`` (the device refused) or ``PasskeyFlowError/user(_:)``.
    @discardableResult
    public func seed(
        email: String, name: String? = nil, rpID: String? = nil, on device: VirtualDevice? = nil,
        using management: ManagementAPI
    ) async throws(PasskeyFlowError) -> SeedResult {
        let device = try self.device(device)
        let rpID = try await relyingPartyID(rpID)
        let connection = tenant.connection ?? Self.defaultConnection
        let found = try await management.users.list(byEmail: email.lowercased()).start(as: PasskeyFlowError.management)
        let existing = found.first { $0.identities.contains { $0.connection == connection } }
        let user =
            if let existing {
                existing
            } else {
                try await management.users.create(
                    NewManagementUser(connection: connection, email: email, emailVerified: true, name: name)
                ).start(as: PasskeyFlowError.management)
            }
        let passkeys =
            existing == nil
            ? []
            : try await management.authenticationMethods.list(ofUser: user.userId).start(
                as: PasskeyFlowError.management
            ).filter { $0.type == "passkey" }
        let userHandle =
            passkeys.lazy.compactMap { $0.userHandle.flatMap { try? Base64URL.decode($0) } }.first
            ?? SecureRandom.bytes(32)
        let options = Self.seedOptions(
            rpID: rpID, userHandle: userHandle, email: email, name: name,
            exclude: passkeys.compactMap { $0.keyId.flatMap { try? Base64URL(string: $0) } })
        let registration = try await register(options, rpID: rpID, on: device)
        let passkey: NewPasskeyMethod
        do {
            passkey = try NewPasskeyMethod(
                registration: registration, userHandle: userHandle, relyingPartyIdentifier: rpID)
        } catch {
            // A registration whose attested data does not parse: no library's party to blame.
            throw .user(VirtualUserError(.unexpected, "\(error)"))
        }
        let method = try await forgettingRefused(
            registration.rawId.bytes, in: device.store, as: PasskeyFlowError.management
        ) { () async throws(ManagementAPIError) in
            try await management.authenticationMethods.create(passkey, forUser: user.userId).start()
        }
        return SeedResult(
            user: user, created: existing == nil, method: method, registration: registration,
            userHandle: userHandle, rpID: rpID)
    }

    /// Auth0's default database connection, which seeding creates users in when the tenant names
    /// none.
    static let defaultConnection = "Username-Password-Authentication"

    /// `given`, else the RP ID the tenant's login challenge names (auth0-passkey-api.md §2).
    private func relyingPartyID(_ given: String?) async throws(PasskeyFlowError) -> String {
        if let given { return given }
        return try await tenant.authentication.passkeyLoginChallenge(
            connection: tenant.connection, organization: tenant.organization
        ).start(as: PasskeyFlowError.authentication).relyingPartyId
    }

    /// Creation options for a seeded passkey (WebAuthn L3 §5.4): a random challenge (no relying
    /// party checks this ceremony; the Management API takes the key as it is), a discoverable
    /// credential, ES256 first, no attestation.
    private static func seedOptions(
        rpID: String, userHandle: [UInt8], email: String, name: String?, exclude: [Base64URL]
    ) -> PublicKeyCredentialCreationOptionsJSON {
        PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: rpID, id: rpID),
            user: PublicKeyCredentialUserEntityJSON(
                id: Base64URL(userHandle), name: email, displayName: name ?? email),
            challenge: Base64URL(SecureRandom.bytes(32)),
            pubKeyCredParams: [COSEAlgorithm.es256, .eddsa, .rs256].map {
                PublicKeyCredentialParameters(alg: $0.rawValue)
            },
            excludeCredentials: exclude.isEmpty ? nil : exclude.map { PublicKeyCredentialDescriptorJSON(id: $0) },
            authenticatorSelection: AuthenticatorSelectionCriteria(
                residentKey: .required, userVerification: .preferred),
            attestation: AttestationConveyancePreference.none)
    }
}
