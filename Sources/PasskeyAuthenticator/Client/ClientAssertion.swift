public import WebAuthn

/// What ``WebAuthnClient/get(json:origin:topOrigin:)`` answers: the `AuthenticationResponseJSON`
/// as text, and what a front end reports of the assertion (a control server's event, a CLI's
/// summary) without reading the text back.
public struct ClientAssertion: Sendable, Hashable {
    /// The `AuthenticationResponseJSON` (WebAuthn L3 §5.1) as UTF-8 JSON text, byte for byte as
    /// ``WebAuthnJSON/encode(_:)`` writes the response.
    public let json: [UInt8]
    /// The ID of the credential that signed.
    public let credentialID: [UInt8]
    /// The user handle of the credential's account, when the authenticator returned one.
    public let userHandle: [UInt8]?
    /// The signature counter of the authenticator data (WebAuthn L3 §6.1.1); 0 for a profile that
    /// keeps none.
    public let signCount: UInt32
    /// The RP ID the ceremony ran under (WebAuthn L3 §5.1.4 step 6), lowercase.
    public let rpID: String

    /// An assertion's report.
    ///
    /// - Parameters:
    ///   - json: the response's JSON text.
    ///   - credentialID: the credential ID.
    ///   - userHandle: the user handle, if returned.
    ///   - signCount: the signature counter.
    ///   - rpID: the RP ID.
    public init(json: [UInt8], credentialID: [UInt8], userHandle: [UInt8]?, signCount: UInt32, rpID: String) {
        self.json = json
        self.credentialID = credentialID
        self.userHandle = userHandle
        self.signCount = signCount
        self.rpID = rpID
    }

    /// The response, read back from ``json``.
    ///
    /// - Throws: ``WebAuthnError`` only if ``json`` is not the response it claims to be.
    public func response() throws(WebAuthnError) -> AuthenticationResponseJSON {
        try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: json)
    }
}
