import WebAuthn

/// How a credential made through U2F is kept and found (FIDO U2F Raw Message Formats v1.2 §4.1,
/// §5.1; CTAP 2.1 §10).
///
/// U2F_REGISTER names the relying party only by its application parameter, SHA-256 of the AppID
/// or RP ID, never the text itself. Such a credential is kept as any other of the store (the
/// profile's sealed P-256 key, its counter, its file), under the RP ID `u2f:` followed by the
/// parameter in lower-case hex, with no user handle: CTAP2 makes no credential without one
/// (`user.id` is 1 to 64 bytes), so no CTAP2 credential passes for a U2F one.
///
/// It is found by its key handle, the credential ID, and belongs to every RP ID whose SHA-256 is
/// its parameter: U2F_AUTHENTICATE with that parameter, and CTAP2 getAssertion or
/// makeCredential's exclude list naming the key handle with such an RP ID. A platform that
/// registered through U2F for `example.com` then signs in through CTAP2 with rpId `example.com`,
/// and WebAuthn's `appid` extension (L3 §10.1.1) works the same way: the client sends the AppID
/// as rpId, whose SHA-256 is the parameter the credential was registered under.
extension StoredCredential {
    /// What the RP ID of a U2F credential begins with; no domain name (an RP ID) has a colon.
    private static let u2fPrefix = "u2f:"

    /// The RP ID a credential made through U2F for `application` is kept under.
    ///
    /// - Parameter application: the 32-byte application parameter.
    /// - Returns: `u2f:` and the parameter in lower-case hex.
    public static func u2fRPID(application: [UInt8]) -> String {
        u2fPrefix + Hex.encode(application)
    }

    /// The application parameter of a credential made through U2F; `nil` for any other.
    public var u2fApplication: [UInt8]? {
        guard userHandle.isEmpty, rpID.hasPrefix(Self.u2fPrefix),
            let parameter = try? Hex.decode(String(rpID.dropFirst(Self.u2fPrefix.count))),
            parameter.count == SHA256Digest.digestLength
        else {
            return nil
        }
        return parameter
    }

    /// Whether a ceremony for `rpID` may use this credential: the same RP ID, or, for a
    /// credential made through U2F, an RP ID whose SHA-256 is its application parameter
    /// (CTAP 2.1 §10).
    ///
    /// - Parameter rpID: the RP ID of the request.
    /// - Returns: whether the credential is scoped to it.
    public func isScoped(to rpID: String) -> Bool {
        if let application = u2fApplication {
            return SHA256Digest.hash(Array(rpID.utf8)) == application
        }
        return self.rpID == rpID
    }
}
