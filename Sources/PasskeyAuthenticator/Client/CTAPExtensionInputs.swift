import WebAuthn

/// The client extension inputs that map onto CTAP authenticator extensions, read from the
/// options' other extensions (``AuthenticationExtensionsClientInputsJSON/otherExtensions``):
///
/// | input | CTAP extension |
/// |---|---|
/// | `credentialProtectionPolicy` (string), `enforceCredentialProtectionPolicy` (boolean) | `credProtect`, CTAP 2.1 §12.1 |
/// | `credBlob` (base64url) at creation, `getCredBlob` (boolean) at assertion | `credBlob`, §12.2 |
/// | `minPinLength` (boolean) | `minPinLength`, §12.4 |
struct CTAPExtensionInputs {
    var credentialProtection: CredentialProtectionPolicy?
    var enforceCredentialProtection = false
    var credBlob: [UInt8]?
    var getCredBlob = false
    var minPINLength = false

    /// Reads the inputs.
    ///
    /// - Throws: `SyntaxError` for a member of the wrong type or an unknown policy name (the
    ///   WebIDL conversion a browser does first).
    init(_ inputs: AuthenticationExtensionsClientInputsJSON?) throws(WebAuthnClientError) {
        guard let others = inputs?.otherExtensions else {
            return
        }
        if let value = others["credentialProtectionPolicy"] {
            guard let name = value.stringValue, let policy = CredentialProtectionPolicy(name: name) else {
                throw WebAuthnClientError(.syntax, "credentialProtectionPolicy is not a credProtect policy name")
            }
            credentialProtection = policy
        }
        enforceCredentialProtection = try Self.bool(others, "enforceCredentialProtectionPolicy")
        if let value = others["credBlob"] {
            guard let text = value.stringValue, let bytes = try? Base64URL.decode(text) else {
                throw WebAuthnClientError(.syntax, "credBlob is not base64url")
            }
            credBlob = bytes
        }
        getCredBlob = try Self.bool(others, "getCredBlob")
        minPINLength = try Self.bool(others, "minPinLength")
    }

    private static func bool(_ others: [String: JSONValue], _ name: String) throws(WebAuthnClientError) -> Bool {
        guard let value = others[name] else {
            return false
        }
        guard let bool = value.boolValue else {
            throw WebAuthnClientError(.syntax, "\(name) is not a boolean")
        }
        return bool
    }
}
