public import Auth0Passkeys
public import WebAuthn

/// What seeding a user gives: the user as the Management API has them, and the passkey made on
/// the device and attached to them.
public struct SeedResult: Sendable {
    /// The user, created or found by email.
    public let user: ManagementUser
    /// Whether the user was created now; `false` when one with the email existed.
    public let created: Bool
    /// The attached passkey, as the Management API answered it.
    public let method: ManagementAuthenticationMethod
    /// The new passkey's registration response, as the device made it.
    public let registration: RegistrationResponseJSON
    /// The user handle the passkey was made with and the tenant keeps with it.
    public let userHandle: [UInt8]
    /// The RP ID the passkey is for.
    public let rpID: String

    /// The new passkey's credential ID.
    public var credentialID: [UInt8] { registration.rawId.bytes }
}
