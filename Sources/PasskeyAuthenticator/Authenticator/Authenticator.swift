/// An authenticator as CTAP 2.1 defines it: it makes credentials and signs assertions, and knows
/// nothing of origins, JSON or client data beyond their hash.
///
/// The WebAuthn client (``WebAuthnClient``), the platform credential provider and everything
/// above them work with any conformer, so another backend (an HSM, a TPM, a hardware token behind
/// CTAP HID, another key store) implements these three requirements and reuses the rest:
///
/// - ``info`` is `authenticatorGetInfo` (CTAP 2.1 §6.4), reduced to what a client decides with;
/// - ``makeCredential(_:)`` is `authenticatorMakeCredential` (§6.1);
/// - ``getAssertion(_:)`` is `authenticatorGetAssertion` (§6.2), with the account choice a real
///   authenticator makes on its own display already made (no `authenticatorGetNextAssertion`).
///
/// Failures are ``AuthenticatorError``s carrying CTAP2 status codes.
public protocol Authenticator: Sendable {
    /// What the authenticator is and supports.
    var info: AuthenticatorInfo { get }

    /// Makes a credential (CTAP 2.1 §6.1.2).
    ///
    /// - Parameter request: the client data hash, RP, user, algorithms, exclude list, options
    ///   and extensions.
    /// - Returns: the attestation object of the new credential.
    /// - Throws: ``AuthenticatorError``: `CTAP2_ERR_CREDENTIAL_EXCLUDED` (nothing stored),
    ///   `CTAP2_ERR_UNSUPPORTED_ALGORITHM`, `CTAP2_ERR_UNSUPPORTED_OPTION`, a user refusal
    ///   (`CTAP2_ERR_OPERATION_DENIED`, `CTAP2_ERR_KEEPALIVE_CANCEL`,
    ///   `CTAP2_ERR_USER_ACTION_TIMEOUT`, `CTAP2_ERR_UV_INVALID`) or a store failure.
    func makeCredential(_ request: MakeCredentialRequest) async throws(AuthenticatorError) -> MakeCredentialResponse

    /// Signs an assertion (CTAP 2.1 §6.2.2).
    ///
    /// - Parameter request: the RP ID, client data hash, allow list, options and extensions.
    /// - Returns: the credential used, the authenticator data, the signature and the user handle.
    /// - Throws: ``AuthenticatorError``: `CTAP2_ERR_NO_CREDENTIALS`, a user refusal, or a store
    ///   failure.
    func getAssertion(_ request: GetAssertionRequest) async throws(AuthenticatorError) -> GetAssertionResponse
}
