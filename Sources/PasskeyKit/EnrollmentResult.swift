public import Auth0Passkeys
public import WebAuthn

/// What a My Account enrollment gives: the tenant's authentication method for the new passkey.
public struct EnrollmentResult: Sendable {
    /// The authentication method the tenant made.
    public let method: PasskeyAuthenticationMethod
    /// The new passkey's registration response.
    public let registration: RegistrationResponseJSON

    /// The new passkey's credential ID.
    public var credentialID: [UInt8] { registration.rawId.bytes }
}
