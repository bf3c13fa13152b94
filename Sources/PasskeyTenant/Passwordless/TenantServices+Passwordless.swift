import FoundationEssentials
import WebAuthn

/// Passwordless codes and users, which the start, the link and the OTP grant share.
extension TenantServices {
    /// Keeps `code` under `key`, replacing the code kept there: only the newest code for an
    /// address is good, as on Auth0. Of two starts at once, one's code stays.
    ///
    /// - Throws: `server_error` when the store fails.
    func keep(_ code: PasswordlessCode, key: StoredValue) async throws(TenantError) {
        for _ in 0..<2 {
            let now = clock.now()
            if try await store.update(PasswordlessCode.self, key: key, at: now, { $0 = code }) != nil { return }
            if try await store.insert(code, key: key, expiring: now) { return }
        }
        throw TenantError(.serverError, status: 500, "passwordless: the code could not be kept")
    }

    /// Redeems `code`, sent to `address` on `connection` for `clientID`: once, and only while it
    /// lives, it is not void and it was sent as asked (`link`: a magic link's code is good at its
    /// link only, a code's at the token endpoint only). A wrong code counts as one wrong try; the
    /// code is void after ``PasswordlessCode/maximumWrongTries``. The code is never logged nor put
    /// in an error.
    ///
    /// - Returns: the code's record as it was.
    /// - Throws: `invalid_grant` (403, Auth0's status for it at `/oauth/token`) with Auth0's
    ///   descriptions: "Wrong email or verification code." (or "Wrong phone number or verification
    ///   code.") for an unknown, expired, used or wrong code, or a code for another address or
    ///   client; "You've reached the maximum number of attempts. Please try to login again." once
    ///   the code is void.
    func redeemPasswordlessCode(
        _ code: String, clientID: String, connection: PasswordlessConnection, address: String, link: Bool
    ) async throws(TenantError) -> PasswordlessCode {
        let key = PasswordlessCode.key(clientID: clientID, connection: connection, address: address)
        let digest = PasswordlessCode.digest(of: code, for: key)
        let wrong = TenantError(
            .invalidGrant, status: 403,
            "Wrong \(connection == .email ? "email" : "phone number") or verification code.")
        guard
            let record = try await store.update(
                PasswordlessCode.self, key: key, at: clock.now(),
                { if ($0.link != nil) == link { $0.present(digest) } })
        else { throw wrong }
        guard (record.link != nil) == link else { throw wrong }
        switch record.verdict(on: digest) {
        case .accepted: return record
        case .wrong: throw wrong
        case .locked:
            throw TenantError(
                .invalidGrant, status: 403, "You've reached the maximum number of attempts. Please try to login again.")
        }
    }

    /// The ID of the user `address` logs in on `connection`: `email|` or `sms|` and 24 hex digits,
    /// Auth0's form. **[local]** The digits are the first 12 bytes of the SHA-256 of the connection
    /// and the address in lower case, so the same address is always the same user, at any
    /// instance, with no lookup by address.
    static func passwordlessUserID(_ connection: PasswordlessConnection, address: String) -> String {
        let digest = SHA256Digest.hash(Array("\(connection.rawValue)\n\(address.lowercased())".utf8))
        return connection.rawValue + "|" + Hex.encode(Array(digest.prefix(12)))
    }

    /// The user `address` logs in on `connection`, created at the first login: the identity
    /// `{provider, connection: email|sms, user_id: <hex>, isSocial: false}`, the address as the
    /// profile's email (verified: the code proves it) or phone number. The user is the connection's
    /// own: the same email in the database connection is another user (Auth0's default: no
    /// linking).
    ///
    /// - Throws: `server_error` when the store fails.
    func passwordlessUser(_ connection: PasswordlessConnection, address: String) async throws(TenantError)
        -> TenantUser
    {
        let id = Self.passwordlessUserID(connection, address: address)
        if let user = try await store.user(id: id) { return user }
        var profile = UserProfile()
        switch connection {
        case .email: profile.email = address.lowercased()
        case .sms: profile.phoneNumber = address
        }
        var user = TenantUser.new(profile: profile, metadata: [:], at: clock.now())
        user.id = id
        user.emailVerified = connection == .email ? true : nil
        user.identity = UserIdentity(
            provider: connection.rawValue, connection: connection.rawValue,
            userID: String(id.dropFirst(connection.rawValue.count + 1)))
        return try await store.federatedUser(user)
    }
}
