// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension AuthenticatorAssertionResponseJSON: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("clientDataJSON", \.clientDataJSON), .member("authenticatorData", \.authenticatorData),
            .member("signature", \.signature), .member("userHandle", \.userHandle),
        ])

    package static var unread: Self {
        Self(clientDataJSON: Base64URL([]), authenticatorData: Base64URL([]), signature: Base64URL([]))
    }
}

/// The authenticator's part of an authentication response, in JSON form (WebAuthn L3 §5.1,
/// §5.2.2).
///
/// ```
/// dictionary AuthenticatorAssertionResponseJSON {
///     required Base64URLString clientDataJSON;
///     required Base64URLString authenticatorData;
///     required Base64URLString signature;
///     Base64URLString userHandle;
/// };
/// ```
public struct AuthenticatorAssertionResponseJSON: Sendable, Hashable, Codable {
    /// The exact bytes of the collected client data (WebAuthn L3 §5.8.1), which are hashed.
    public var clientDataJSON: Base64URL
    /// The authenticator data (WebAuthn L3 §6.1), the first part of the signed bytes.
    public var authenticatorData: Base64URL
    /// The signature over `authenticatorData ‖ SHA-256(clientDataJSON)`; DER for ECDSA.
    public var signature: Base64URL
    /// The user handle of the credential's account; authenticators may omit it for a
    /// non-discoverable credential.
    public var userHandle: Base64URL?

    /// Creates an assertion response.
    ///
    /// - Parameters:
    ///   - clientDataJSON: the collected client data bytes.
    ///   - authenticatorData: the authenticator data.
    ///   - signature: the assertion signature.
    ///   - userHandle: the user handle, if returned.
    public init(
        clientDataJSON: Base64URL,
        authenticatorData: Base64URL,
        signature: Base64URL,
        userHandle: Base64URL? = nil
    ) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}
