import FoundationEssentials
import WebAuthn

/// A user's JSON columns as both stores write them, and what a change to a user must find free.
extension TenantUser {
    /// The `profile` column.
    var storedProfile: String { String(decoding: WebAuthnJSON.encode(profile), as: UTF8.self) }
    /// The `metadata` column (`user_metadata`).
    var storedMetadata: String { String(decoding: WebAuthnJSON.encode(metadata), as: UTF8.self) }
    /// The `app_metadata` column; NULL when never set.
    var storedAppMetadata: String? { appMetadata.map { String(decoding: WebAuthnJSON.encode($0), as: UTF8.self) } }

    /// The identifiers of the database connection that `changed` has and this user had not
    /// (emails and usernames compared without regard to case, as the unique indexes compare them),
    /// for ``TenantStore/takenIdentifier(of:)``; none for an upstream connection's user, whose
    /// identifiers are the upstream's.
    func changedIdentifiers(in changed: TenantUser) -> UserProfile {
        guard changed.identity == nil else { return UserProfile() }
        let (old, new) = (profile, changed.profile)
        return UserProfile(
            email: new.email?.lowercased() == old.email?.lowercased() ? nil : new.email,
            phoneNumber: new.phoneNumber == old.phoneNumber ? nil : new.phoneNumber,
            username: new.username?.lowercased() == old.username?.lowercased() ? nil : new.username)
    }
}
