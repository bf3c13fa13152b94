public import FoundationEssentials

/// What Auth0 reads from a newly created passkey: the four values its signup and enrollment
/// calls send (Auth0 passkey API spec §4.2, §3.2, §5.3).
///
/// Each property becomes one member of the `authn_response` (or enrollment) body, base64url
/// without padding: `credentialID` → `id` and `rawId`, `attachment` → `authenticatorAttachment`,
/// `rawClientDataJSON` → `response.clientDataJSON`, `rawAttestationObject` →
/// `response.attestationObject` (WebAuthn L3 §5.1 `RegistrationResponseJSON`).
///
/// Auth0's Swift SDK declares `rawAttestationObject` as `Data?` and force-unwraps it; here it is
/// non-optional, so a conformer without an attestation object does not compile instead of
/// crashing at run time.
public protocol NewPasskey: Sendable {
    /// The credential ID (WebAuthn L3 §4 "Credential ID").
    var credentialID: Data { get }

    /// How the authenticator is attached: `platform`,
    /// `cross-platform` (``AuthenticatorAttachment``), or `nil` when unknown, in which case the
    /// `authenticatorAttachment` member is omitted (spec §3.2).
    var attachment: AuthenticatorAttachment? { get }

    /// The exact bytes of the collected client data (WebAuthn L3 §5.8.1).
    var rawClientDataJSON: Data { get }

    /// The CBOR attestation object (WebAuthn L3 §6.5).
    var rawAttestationObject: Data { get }
}
