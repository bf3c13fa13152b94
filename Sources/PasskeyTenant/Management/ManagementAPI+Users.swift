import FoundationEssentials
import Hummingbird
import WebAuthn

/// The Management API's operations (auth0-passkey-api.md §15.2, §15.3), for a caller already
/// authorized by ``ManagementAPI/managementClaims(_:scope:)``: seeding users who hold passkeys
/// without a signup ceremony.
extension ManagementAPI {
    /// `POST /api/v2/users`: creates a user of the tenant's connection, with no passkey yet.
    ///
    /// The identifiers follow the connection's rules, as at signup; the email is stored
    /// lower-case. **[local]** No password: the connection takes passkeys only.
    ///
    /// - Returns: the new user.
    /// - Throws: `invalid_body` (400, rendered from `invalid_request`) for another connection, a
    ///   missing or malformed identifier or too much metadata; `auth0_idp_error` (409) for an
    ///   identifier that belongs to a user already.
    func createManagedUser(_ body: NewManagedUser) async throws(TenantError) -> ManagedUser {
        guard body.connection == configuration.connection else {
            throw .invalidRequest("The connection does not exist: \(body.connection.prefix(64))")
        }
        let profile = body.profile
        if let taken = try await store.takenIdentifier(of: profile) {
            throw TenantError(.userExists, status: 409, "The user already exists (\(taken) is taken).")
        }
        var user = try await services.newUser(
            profile: profile, metadata: body.userMetadata ?? [:], connection: configuration.connection)
        user.emailVerified = body.emailVerified == true ? true : nil
        try await store.insertUser(user)
        return ManagedUser(user, connection: configuration.connection)
    }

    /// `GET /api/v2/users/{id}`: the user with its linked identities.
    ///
    /// - Throws: `inexistent_user` (404).
    func managedUser(id: String) async throws(TenantError) -> ManagedUser {
        try await managedUser(try await existingUser(id))
    }

    /// `user` with the identities linked to it (one read per listed user).
    private func withLinkedIdentities(_ user: ManagedUser) async throws(TenantError) -> ManagedUser {
        var user = user
        user.identities += try await store.linkedUsers(primaryID: user.userID).map {
            $0.linkedIdentity(databaseConnection: configuration.connection)
        }
        return user
    }

    /// `user` as the Management API shows it, with the identities linked to it.
    func managedUser(_ user: TenantUser) async throws(TenantError) -> ManagedUser {
        ManagedUser(
            user, connection: configuration.connection, linked: try await store.linkedUsers(primaryID: user.id))
    }

    /// `GET /api/v2/users-by-email?email=…`: the users with this email, compared as Auth0 stores
    /// it (lower-case); an empty array when there are none.
    ///
    /// - Throws: `invalid_query_string` (400) for a missing or empty email.
    func managedUsers(email: String?) async throws(TenantError) -> [ManagedUser] {
        guard let email, !email.isEmpty else {
            throw TenantError(.invalidQueryString, "Query validation error: email is required.")
        }
        var users: [ManagedUser] = []
        for user in try await store.users(email: email.lowercased()) {
            users.append(try await managedUser(user))
        }
        return users
    }

    /// `GET /api/v2/users`: the users that match `request.query`, sorted, one page of them, each
    /// with the members `fields` asks for; with `include_totals`, the page with where it sits.
    ///
    /// Without `q` and `sort`, the database pages and counts (the store's order, oldest first, is
    /// the answer's). Otherwise the store reads the users the query's exact terms keep
    /// (``UserSearchQuery/storeFilter``: `user_id:"…"`, `email:"…"`), and the whole query, the
    /// sort and the page are applied here, so no part of `q` is ever spliced into SQL.
    ///
    /// - Returns: an array of users, or a ``ManagedUserPage``.
    /// - Throws: `server_error` (500) for a database fault only; the request was checked already.
    func listManagedUsers(_ request: UserListRequest) async throws(TenantError) -> Response {
        let start = request.page * request.perPage
        let page: [ManagedUser]
        let total: Int
        if let connection = request.connection, connection != configuration.connection {
            (page, total) = ([], 0)
        } else if request.query.root == nil, request.sort == nil {
            let read = try await store.users(
                .all, offset: start, limit: request.perPage, counting: request.includeTotals)
            page = read.users.map { ManagedUser($0, connection: configuration.connection) }
            total = read.total ?? 0
        } else {
            let read = try await store.users(request.query.storeFilter, offset: 0, limit: nil, counting: false)
            let users = read.users.lazy.map { ManagedUser($0, connection: self.configuration.connection) }
                .filter(request.query.matches)
            let matches = Array(users)
            page = Array(request.sorted(matches).dropFirst(start).prefix(request.perPage))
            total = matches.count
        }
        var shaped: [JSONValue] = []
        for user in page { shaped.append(try request.shaped(try await withLinkedIdentities(user))) }
        guard request.includeTotals else { return TenantResponseEncoder.json(shaped) }
        return TenantResponseEncoder.json(
            ManagedUserPage(start: start, limit: request.perPage, length: shaped.count, total: total, users: shaped))
    }

    /// `DELETE /api/v2/users/{id}`: deletes the user with their passkeys, refresh tokens and login
    /// sessions, so none of them signs in again. **[local]** An unknown ID is not an error: the
    /// user is gone either way.
    func deleteManagedUser(id: String) async throws(TenantError) {
        _ = try await store.deleteUser(id: id)
    }

    /// `GET /api/v2/users/{id}/authentication-methods`: one page of the user's passkeys, oldest
    /// first.
    ///
    /// - Parameters:
    ///   - userID: the user.
    ///   - page: the page, from 0.
    ///   - perPage: the page's size, 1 to 100.
    /// - Throws: `invalid_query_string` (400) for a page or size out of range; `inexistent_user` (404).
    func managedAuthenticationMethods(userID: String, page: Int, perPage: Int) async throws(TenantError)
        -> ManagedAuthenticationMethodPage
    {
        guard page >= 0, (1...100).contains(perPage) else {
            throw TenantError(.invalidQueryString, "Query validation error: page ≥ 0 and per_page 1 to 100.")
        }
        let user = try await existingUser(userID)
        let all = try await store.credentials(userID: user.id)
        let (product, overflow) = page.multipliedReportingOverflow(by: perPage)
        let start = overflow ? Int.max : product
        let methods = start < all.count ? Array(all[start...].prefix(perPage)) : []
        return ManagedAuthenticationMethodPage(
            authenticators: methods.map {
                ManagedAuthenticationMethod($0, user: user, relyingPartyID: configuration.relyingPartyID)
            },
            start: start, limit: perPage, total: all.count)
    }

    /// `POST /api/v2/users/{id}/authentication-methods`: adds a passkey made elsewhere to the user,
    /// confirmed at once; it then logs in with `/passkey/challenge` and the webauthn grant when the
    /// authenticator returns the same user handle (auth0-passkey-api.md §15.3).
    ///
    /// - Returns: the new method.
    /// - Throws: `invalid_body` (400, rendered from `invalid_request`) for a type other than
    ///   `passkey`, a missing or malformed field, a public key that is not a COSE_Key of an
    ///   algorithm the tenant allows, another RP ID or identity; `inexistent_user` (404);
    ///   `conflict` (409) when the `key_id` is registered to any user.
    func createManagedPasskey(userID: String, _ body: NewManagedPasskey) async throws(TenantError)
        -> ManagedAuthenticationMethod
    {
        let user = try await existingUser(userID)
        let credential = try postedCredential(body, for: user)
        try await store.insertPostedCredential(credential)
        return ManagedAuthenticationMethod(credential, user: user, relyingPartyID: configuration.relyingPartyID)
    }

    /// `DELETE /api/v2/users/{id}/authentication-methods/{method id}`.
    ///
    /// - Throws: `inexistent_user` (404); `not_found` (404) when the user has no such method.
    func deleteManagedAuthenticationMethod(userID: String, id: String) async throws(TenantError) {
        let user = try await existingUser(userID)
        guard try await store.deleteCredential(methodID: id, userID: user.id) else {
            throw TenantError(.notFound, status: 404, "The authentication method does not exist.")
        }
    }

    /// The user with this ID, a user of its own: a linked (secondary) user is an identity of its
    /// primary, as on Auth0.
    ///
    /// - Throws: `inexistent_user` (404).
    func existingUser(_ id: String) async throws(TenantError) -> TenantUser {
        guard let user = try await store.user(id: id), user.primaryUserID == nil else {
            throw TenantServices.inexistentUser
        }
        return user
    }

    /// The credential a posted passkey describes, checked field by field (§15.3 **[local]**):
    /// defaults are the tenant's RP ID, the zero AAGUID, `single_device`, not backed up.
    private func postedCredential(_ body: NewManagedPasskey, for user: TenantUser) throws(TenantError)
        -> TenantCredential
    {
        guard body.type == "passkey" else {
            throw .invalidRequest("type: only passkey methods can be created on this tenant")
        }
        let id = try Self.base64(body.keyID, "key_id", bytes: 1...1023)
        let keyBytes = try Self.base64(body.publicKey, "public_key", bytes: 1...2048)
        let algorithm = try services.givenKeyAlgorithm(keyBytes, field: "public_key")
        let handle = try Self.base64(body.userHandle, "user_handle", bytes: 1...64)
        var aaguid = AAGUID.zero
        if let text = body.aaguid {
            do throws(WebAuthnError) {
                aaguid = try AAGUID(uuidString: text)
            } catch {
                throw .invalidRequest("aaguid: not a UUID")
            }
        }
        if let rpID = body.relyingPartyIdentifier, rpID != configuration.relyingPartyID {
            throw .invalidRequest("relying_party_identifier: this tenant's RP ID is \(configuration.relyingPartyID)")
        }
        let backupEligible: Bool
        switch body.credentialDeviceType {
        case nil, "single_device": backupEligible = false
        case "multi_device": backupEligible = true
        default: throw .invalidRequest("credential_device_type: single_device or multi_device")
        }
        let backedUp = body.credentialBackedUp ?? false
        guard backupEligible || !backedUp else {
            // WebAuthn L3 §6.1.3: BS may be set only with BE.
            throw .invalidRequest("credential_backed_up: a single_device credential is never backed up")
        }
        let transports = body.transports ?? []
        guard transports.count <= 16,
            transports.allSatisfy({ (1...64).contains($0.count) && !$0.contains(where: \.isWhitespace) })
        else {
            throw .invalidRequest("transports: at most 16 names without spaces")
        }
        if let identity = body.identityUserID, identity != user.identityUserID, identity != user.id {
            throw .invalidRequest("identity_user_id: not an identity of this user")
        }
        if let name = body.name, !(1...128).contains(name.count) {
            throw .invalidRequest("name: 1 to 128 characters")
        }
        return TenantCredential(
            id: id, methodID: TenantCredential.newMethodID(), userID: user.id, publicKey: keyBytes,
            algorithm: algorithm, signCount: 0, backupEligible: backupEligible, backedUp: backedUp, aaguid: aaguid,
            transports: transports, userAgent: body.userAgent.map { String($0.prefix(256)) }, createdAt: clock.now(),
            lastAuthenticatedAt: nil, name: body.name, userHandle: handle == user.userHandle ? nil : handle)
    }

    /// A required base64 field's bytes, in either alphabet (RFC 4648 §4, §5), padded or not.
    ///
    /// - Throws: `invalid_request` naming `field` when it is missing, not base64, or its length is
    ///   outside `bytes`.
    private static func base64(_ text: String?, _ field: String, bytes: ClosedRange<Int>) throws(TenantError)
        -> [UInt8]
    {
        guard let text else { throw .invalidRequest("\(field): required") }
        let urlSafe = String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        let decoded: [UInt8]
        do throws(WebAuthnError) {
            decoded = try Base64URL.decode(urlSafe)
        } catch {
            throw .invalidRequest("\(field): not base64 (\(error.reason))")
        }
        guard bytes.contains(decoded.count) else {
            throw .invalidRequest("\(field): \(bytes.lowerBound) to \(bytes.upperBound) bytes")
        }
        return decoded
    }
}
