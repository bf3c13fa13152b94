public import WebAuthn

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
/// An authenticator that implements hmac-secret (and so WebAuthn's `prf`) also answers
/// ``keyAgreement(_:)`` and ``sharedSecret(with:_:)`` (the same key serves a CTAP device's
/// clientPIN, §6.5.4), and one with large blobs (WebAuthn's `largeBlob`) answers
/// ``largeBlobs()`` and ``setLargeBlobs(_:)``; one that speaks U2F (``AuthenticatorInfo/supportsU2F``)
/// answers ``registerU2F(application:challenge:)``, ``authenticateU2F(application:challenge:keyHandle:userPresent:)``
/// and ``hasU2FCredential(keyHandle:application:)``. The defaults refuse them.
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

    /// The authenticator's key-agreement public key (`authenticatorClientPIN` subcommand
    /// `getKeyAgreement`, CTAP 2.1 §6.5.5.4), which the platform encapsulates hmac-secret salts to.
    ///
    /// - Parameter pinUVAuthProtocol: the PIN/UV auth protocol the platform will use.
    /// - Returns: a P-256 COSE key (alg -25).
    /// - Throws: ``AuthenticatorError`` with `CTAP2_ERR_UNSUPPORTED_OPTION` when the authenticator
    ///   has no hmac-secret.
    func keyAgreement(_ pinUVAuthProtocol: PINUVAuthProtocol) async throws(AuthenticatorError) -> COSEKey

    /// The shared secret of the key ``keyAgreement(_:)`` returns with a platform's key-agreement
    /// key (CTAP 2.1 §6.5.6, §6.5.7 `decapsulate`): what a CTAP device's `authenticatorClientPIN`
    /// decrypts PINs and encrypts its pinUvAuthToken with. hmac-secret (§12.5) and clientPIN share
    /// the one key, as `getKeyAgreement` hands out only one.
    ///
    /// - Parameters:
    ///   - platformKey: the platform's `keyAgreement` (a P-256 COSE key).
    ///   - pinUVAuthProtocol: the protocol whose KDF makes the secret.
    /// - Returns: the shared secret.
    /// - Throws: ``AuthenticatorError`` with `CTAP1_ERR_INVALID_PARAMETER` when `platformKey` is
    ///   not a point of P-256, `CTAP2_ERR_UNSUPPORTED_OPTION` when the authenticator has no key
    ///   agreement.
    func sharedSecret(with platformKey: COSEKey, _ pinUVAuthProtocol: PINUVAuthProtocol)
        async throws(AuthenticatorError) -> PINUVAuthSharedSecret

    /// Replaces the key-agreement key with a fresh one (CTAP 2.1 §6.5.4 `regenerate`), as a CTAP
    /// device does after a wrong PIN (§6.5.5.7.2): every shared secret made with the old key
    /// stops working, so a platform must run getKeyAgreement again.
    ///
    /// - Throws: ``AuthenticatorError`` with `CTAP1_ERR_OTHER` when no new key can be made.
    func regenerateKeyAgreement() async throws(AuthenticatorError)

    /// The serialized large-blob array (`authenticatorLargeBlobs` `get`, CTAP 2.1 §6.10.2), read
    /// whole; see ``LargeBlobArray``.
    ///
    /// - Returns: the array and its 16-byte hash.
    /// - Throws: ``AuthenticatorError`` with `CTAP2_ERR_UNSUPPORTED_OPTION` when the authenticator
    ///   keeps no large blobs.
    func largeBlobs() async throws(AuthenticatorError) -> [UInt8]

    /// Replaces the serialized large-blob array (`authenticatorLargeBlobs` `set`, CTAP 2.1
    /// §6.10.2), written whole.
    ///
    /// - Parameter serialized: the array and its 16-byte hash.
    /// - Throws: ``AuthenticatorError`` with `CTAP2_ERR_LARGE_BLOB_STORAGE_FULL` when it is longer
    ///   than ``AuthenticatorInfo/maxSerializedLargeBlobArray``, `CTAP2_ERR_INTEGRITY_FAILURE`
    ///   when its hash does not match, `CTAP2_ERR_UNSUPPORTED_OPTION` without large blobs.
    func setLargeBlobs(_ serialized: [UInt8]) async throws(AuthenticatorError)

    /// A stored credential's `largeBlobKey` (CTAP 2.1 §12.3), as `authenticatorCredentialManagement`
    /// reports it beside the credential (§6.8.4 response member 0x0B).
    ///
    /// - Parameter credential: a credential of the authenticator's store.
    /// - Returns: the key, or `nil` when the credential has none or the authenticator keeps no
    ///   large blobs.
    /// - Throws: ``AuthenticatorError`` when the store cannot compute it.
    func largeBlobKey(of credential: StoredCredential) async throws(AuthenticatorError) -> SecretKey?

    /// Makes a credential for U2F_REGISTER (FIDO U2F Raw Message Formats v1.2 §4): a P-256 key
    /// scoped to the application parameter, and its attestation.
    ///
    /// The caller has tested user presence.
    ///
    /// - Parameters:
    ///   - application: the 32-byte application parameter (SHA-256 of the AppID or RP ID).
    ///   - challenge: the 32-byte challenge parameter (SHA-256 of the client data).
    /// - Returns: the public key, key handle, attestation certificate and signature.
    /// - Throws: ``AuthenticatorError``: `CTAP1_ERR_INVALID_LENGTH` for a parameter that is not 32
    ///   bytes, `CTAP2_ERR_UNSUPPORTED_OPTION` without U2F, a store failure.
    func registerU2F(application: [UInt8], challenge: [UInt8]) async throws(AuthenticatorError) -> U2FRegistration

    /// Signs for U2F_AUTHENTICATE (FIDO U2F Raw Message Formats v1.2 §5) with a credential made
    /// through ``registerU2F(application:challenge:)``, advancing its counter as the profile says.
    ///
    /// - Parameters:
    ///   - application: the 32-byte application parameter.
    ///   - challenge: the 32-byte challenge parameter.
    ///   - keyHandle: the key handle.
    ///   - userPresent: whether the caller tested user presence (clear for "don't enforce").
    /// - Returns: the user presence byte, the counter and the signature.
    /// - Throws: ``AuthenticatorError``: `CTAP2_ERR_NO_CREDENTIALS` when the key handle is not one
    ///   of this authenticator's for `application`, `CTAP1_ERR_INVALID_LENGTH`, a store failure.
    func authenticateU2F(application: [UInt8], challenge: [UInt8], keyHandle: [UInt8], userPresent: Bool)
        async throws(AuthenticatorError) -> U2FAuthentication

    /// Whether a key handle is one of this authenticator's U2F credentials for an application
    /// parameter: U2F_AUTHENTICATE's "check-only" (§5.1, P1 0x07).
    ///
    /// - Parameters:
    ///   - keyHandle: the key handle.
    ///   - application: the 32-byte application parameter.
    /// - Returns: whether it is.
    /// - Throws: ``AuthenticatorError`` when the store cannot tell.
    func hasU2FCredential(keyHandle: [UInt8], application: [UInt8]) async throws(AuthenticatorError) -> Bool
}

extension Authenticator {
    /// Refuses: an authenticator without hmac-secret has no key agreement.
    public func keyAgreement(_ pinUVAuthProtocol: PINUVAuthProtocol) async throws(AuthenticatorError) -> COSEKey {
        throw AuthenticatorError(.unsupportedOption, "this authenticator does not implement hmac-secret")
    }

    /// Refuses: an authenticator without hmac-secret has no key agreement.
    public func sharedSecret(with platformKey: COSEKey, _ pinUVAuthProtocol: PINUVAuthProtocol)
        async throws(AuthenticatorError) -> PINUVAuthSharedSecret
    {
        throw AuthenticatorError(.unsupportedOption, "this authenticator has no key agreement")
    }

    /// Does nothing: an authenticator without key agreement has no key to replace.
    public func regenerateKeyAgreement() async throws(AuthenticatorError) {}

    /// Refuses: this authenticator keeps no large blobs.
    public func largeBlobs() async throws(AuthenticatorError) -> [UInt8] {
        throw AuthenticatorError(.unsupportedOption, "this authenticator keeps no large blobs")
    }

    /// Refuses: this authenticator keeps no large blobs.
    public func setLargeBlobs(_ serialized: [UInt8]) async throws(AuthenticatorError) {
        throw AuthenticatorError(.unsupportedOption, "this authenticator keeps no large blobs")
    }

    /// None: this authenticator keeps no large blobs.
    public func largeBlobKey(of credential: StoredCredential) async throws(AuthenticatorError) -> SecretKey? {
        nil
    }

    /// Refuses: this authenticator does not speak U2F.
    public func registerU2F(application: [UInt8], challenge: [UInt8]) async throws(AuthenticatorError)
        -> U2FRegistration
    {
        throw AuthenticatorError(.unsupportedOption, "this authenticator does not speak U2F")
    }

    /// Refuses: this authenticator does not speak U2F.
    public func authenticateU2F(application: [UInt8], challenge: [UInt8], keyHandle: [UInt8], userPresent: Bool)
        async throws(AuthenticatorError) -> U2FAuthentication
    {
        throw AuthenticatorError(.unsupportedOption, "this authenticator does not speak U2F")
    }

    /// None: this authenticator has no U2F credential.
    public func hasU2FCredential(keyHandle: [UInt8], application: [UInt8]) async throws(AuthenticatorError) -> Bool {
        false
    }
}
