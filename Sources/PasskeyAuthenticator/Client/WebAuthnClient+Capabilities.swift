import WebAuthn

extension WebAuthnClient {
    /// What `PublicKeyCredential.getClientCapabilities()` answers for this client and its
    /// authenticator (WebAuthn L3 §5.1.7, the `ClientCapability` enumeration of §5.8.7 and
    /// `extension:` keys for each client extension it runs, §9).
    ///
    /// Computed from ``authenticator``'s ``AuthenticatorInfo`` and ``relatedOrigins``: a key is
    /// true only when a ceremony here would honour it. The signal methods are not the client's
    /// (they change the authenticator's credentials), so whoever offers them adds their keys.
    public var capabilities: [String: Bool] {
        let info = authenticator.info
        let platform = info.attachment == .platform
        let extensions = Set(info.extensions)
        return [
            "conditionalCreate": info.supportsResidentKeys,
            "conditionalGet": info.supportsResidentKeys,
            "hybridTransport": info.transports.contains(.hybrid),
            "passkeyPlatformAuthenticator": platform && info.supportsResidentKeys && info.supportsUserVerification,
            "userVerifyingPlatformAuthenticator": platform && info.supportsUserVerification,
            "relatedOrigins": relatedOrigins != nil,
            "extension:credProps": true,
            "extension:prf": extensions.contains("hmac-secret"),
            "extension:largeBlob": info.maxSerializedLargeBlobArray != nil,
            "extension:credBlob": extensions.contains("credBlob"),
            "extension:getCredBlob": extensions.contains("credBlob"),
            "extension:minPinLength": extensions.contains("minPinLength"),
            "extension:credentialProtectionPolicy": extensions.contains("credProtect"),
            "extension:enforceCredentialProtectionPolicy": extensions.contains("credProtect"),
        ]
    }
}
