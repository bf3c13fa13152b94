import WebAuthn

/// `authn_response`: a passkey as Auth0's SDK sends it in the webauthn grant and the My Account
/// verify call (spec §3.2, §5.3). Binary members are unpadded base64url; `rawId` repeats `id`;
/// `authenticatorAttachment` is omitted when unknown; no `transports`, no
/// `clientExtensionResults`.
struct AuthnResponseBody: Encodable {
    struct Response: Encodable {
        let clientDataJSON: Base64URL
        var attestationObject: Base64URL? = nil
        var authenticatorData: Base64URL? = nil
        var signature: Base64URL? = nil
        var userHandle: Base64URL? = nil
    }

    let id: Base64URL
    let rawId: Base64URL
    let type = "public-key"
    let authenticatorAttachment: String?
    let response: Response

    private enum CodingKeys: String, CodingKey {
        case id, rawId, type, authenticatorAttachment, response
    }

    /// A new passkey: `response` has `clientDataJSON` and `attestationObject`.
    init(_ passkey: some NewPasskey) {
        self.init(
            credentialID: passkey.credentialID, attachment: passkey.attachment,
            response: Response(
                clientDataJSON: Base64URL(Array(passkey.rawClientDataJSON)),
                attestationObject: Base64URL(Array(passkey.rawAttestationObject))))
    }

    /// An assertion: `response` has `clientDataJSON`, `authenticatorData`, `signature` and
    /// `userHandle`.
    init(_ passkey: some LoginPasskey) {
        self.init(
            credentialID: passkey.credentialID, attachment: passkey.attachment,
            response: Response(
                clientDataJSON: Base64URL(Array(passkey.rawClientDataJSON)),
                authenticatorData: Base64URL(Array(passkey.rawAuthenticatorData)),
                signature: Base64URL(Array(passkey.signature)),
                userHandle: Base64URL(Array(passkey.userID))))
    }

    /// `id` and `rawId` both carry the credential ID; an attachment other than `platform` or
    /// `cross-platform` is unknown to Auth0 and omitted.
    private init(credentialID: some Sequence<UInt8>, attachment: AuthenticatorAttachment?, response: Response) {
        id = Base64URL(Array(credentialID))
        rawId = id
        authenticatorAttachment =
            attachment.flatMap { $0 == .platform || $0 == .crossPlatform ? $0.rawValue : nil }
        self.response = response
    }
}
