import PasskeyAuthenticator
import WebAuthn

extension CTAPDevice {
    /// `authenticatorClientPIN` (CTAP 2.1 §6.5), as far as an authenticator without a PIN has
    /// it: `getKeyAgreement` (§6.5.5.4), the key a platform encapsulates hmac-secret salts to
    /// (§12.5). Only an authenticator with hmac-secret answers; PIN subcommands are
    /// `CTAP2_ERR_INVALID_SUBCOMMAND` until the device keeps a PIN.
    ///
    /// ```
    /// request  = { 0x01 pinUvAuthProtocol: uint, 0x02 subCommand: uint, … }
    /// response = { 0x01 keyAgreement: COSE_Key }   ; for getKeyAgreement (0x02)
    /// ```
    func clientPIN(_ parameters: CTAPParameters) async throws(CTAPError) -> CBOR {
        guard authenticator.info.extensions.contains("hmac-secret") else {
            throw CTAPError(.invalidCommand, "this authenticator has neither a PIN nor hmac-secret")
        }
        let version = try parameters.required(1, "pinUvAuthProtocol").ctapInt("pinUvAuthProtocol")
        let subcommand = try parameters.required(2, "subCommand").ctapInt("subCommand")
        guard let pinUVAuthProtocol = PINUVAuthProtocol(rawValue: version) else {
            throw CTAPError(.invalidParameter, "PIN/UV auth protocol \(version) is not supported")
        }
        guard subcommand == 0x02 else {
            throw CTAPError(.invalidSubcommand, "clientPIN subcommand \(subcommand) is not implemented")
        }
        let key = try await authenticating { () async throws(AuthenticatorError) in
            try await authenticator.keyAgreement(pinUVAuthProtocol)
        }
        return [1: key.cbor]
    }
}
