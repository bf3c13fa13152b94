/// A user of the database connection to import with one passkey made elsewhere: what the
/// Management API's `POST /api/v2/users` and `POST /api/v2/users/{id}/authentication-methods`
/// (auth0-passkey-api.md §15.2, §15.3) would store for them, without either's round trip or
/// transaction. ``PasskeyTenant/importUsers(_:)`` takes many at once: how a tenant of a million
/// users is seeded (issue 46), not by a million ceremonies over HTTP.
package struct ImportedUser: Sendable, Hashable {
    /// The identifiers and profile claims, checked by the connection's rules as at signup; the
    /// email is stored lower-case.
    package var profile: UserProfile
    /// The WebAuthn user handle the passkey returns (WebAuthn L3 §5.4.3), 1 to 64 bytes.
    package var userHandle: [UInt8]
    /// The passkey's credential ID, 1 to 1023 bytes (WebAuthn L3 §4 Credential ID).
    package var credentialID: [UInt8]
    /// The passkey's public key as a COSE_Key (RFC 9052 §7), of an algorithm the tenant allows.
    package var publicKey: [UInt8]
    /// BE (WebAuthn L3 §6.1.3): a synced (`multi_device`) passkey.
    package var backupEligible: Bool
    /// BS; only with BE.
    package var backedUp: Bool

    package init(
        profile: UserProfile, userHandle: [UInt8], credentialID: [UInt8], publicKey: [UInt8],
        backupEligible: Bool = true, backedUp: Bool = true
    ) {
        self.profile = profile
        self.userHandle = userHandle
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.backupEligible = backupEligible
        self.backedUp = backedUp
    }
}
