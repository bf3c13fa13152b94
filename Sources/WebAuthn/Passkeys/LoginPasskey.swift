public import FoundationEssentials

/// What Auth0 reads from a passkey assertion: the six values its login call sends (Auth0
/// passkey API spec §4.1, §3.2).
///
/// Each property becomes one member of the `authn_response` body, base64url without padding:
/// `userID` → `response.userHandle`, `credentialID` → `id` and `rawId`, `attachment` →
/// `authenticatorAttachment`, `rawClientDataJSON` → `response.clientDataJSON`,
/// `rawAuthenticatorData` → `response.authenticatorData`, `signature` → `response.signature`
/// (WebAuthn L3 §5.1 `AuthenticationResponseJSON`).
///
/// Auth0's Swift SDK declares `userID`, `rawAuthenticatorData` and `signature` as `Data!` and
/// force-unwraps them; here they are non-optional, so a conformer that lacks one does not compile
/// instead of crashing at run time. An ``AuthenticationResponseJSON`` may lack the user handle,
/// so it becomes a `LoginPasskey` through ``LoginPasskeyResponse``, which checks.
public protocol LoginPasskey: Sendable {
    /// The user handle: the `user.id` bytes the passkey was created with (WebAuthn L3 §5.4.3).
    var userID: Data { get }

    /// The credential ID (WebAuthn L3 §4 "Credential ID").
    var credentialID: Data { get }

    /// How the authenticator is attached: `platform`,
    /// `cross-platform` (``AuthenticatorAttachment``), or `nil` when unknown, in which case the
    /// `authenticatorAttachment` member is omitted (spec §3.2).
    var attachment: AuthenticatorAttachment? { get }

    /// The exact bytes of the collected client data (WebAuthn L3 §5.8.1).
    var rawClientDataJSON: Data { get }

    /// The authenticator data (WebAuthn L3 §6.1).
    var rawAuthenticatorData: Data { get }

    /// The assertion signature over `authenticatorData ‖ SHA-256(clientDataJSON)` (WebAuthn L3
    /// §6.3.3); DER for ES256.
    var signature: Data { get }
}
