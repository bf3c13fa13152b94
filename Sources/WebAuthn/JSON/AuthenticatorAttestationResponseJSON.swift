// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension AuthenticatorAttestationResponseJSON: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("clientDataJSON", \.clientDataJSON), .member("authenticatorData", \.authenticatorData),
            .member("transports", \.transports), .member("publicKey", \.publicKey),
            .member("publicKeyAlgorithm", \.publicKeyAlgorithm), .member("attestationObject", \.attestationObject),
        ])

    package static var unread: Self { Self(clientDataJSON: Base64URL([]), attestationObject: Base64URL([])) }
}

/// The authenticator's part of a registration response, in JSON form (WebAuthn L3 §5.1, §5.2.1).
///
/// ```
/// dictionary AuthenticatorAttestationResponseJSON {
///     required Base64URLString clientDataJSON;
///     required Base64URLString authenticatorData;
///     required sequence<DOMString> transports;
///     Base64URLString publicKey;
///     required COSEAlgorithmIdentifier publicKeyAlgorithm;
///     required Base64URLString attestationObject;
/// };
/// ```
///
/// `authenticatorData`, `transports` and `publicKeyAlgorithm` are required by the IDL but
/// optional here: captures from before Level 3 (and Auth0's SDK, WebAuthn flows spec §3.2) send
/// only `clientDataJSON` and `attestationObject`, which hold everything else.
public struct AuthenticatorAttestationResponseJSON: Sendable, Hashable, Codable {
    /// The exact bytes of the collected client data (WebAuthn L3 §5.8.1), which are hashed.
    public var clientDataJSON: Base64URL
    /// The authenticator data (WebAuthn L3 §6.1), a copy of the one in ``attestationObject``.
    public var authenticatorData: Base64URL?
    /// How the client may reach the authenticator later.
    public var transports: [AuthenticatorTransport]?
    /// The credential public key as a DER SubjectPublicKeyInfo (WebAuthn L3 §5.2.1.1), absent
    /// when the client does not understand the algorithm.
    public var publicKey: Base64URL?
    /// The COSE algorithm identifier of the credential public key.
    public var publicKeyAlgorithm: Int?
    /// The attestation object (WebAuthn L3 §6.5), CBOR.
    public var attestationObject: Base64URL

    /// Creates an attestation response.
    ///
    /// - Parameters:
    ///   - clientDataJSON: the collected client data bytes.
    ///   - authenticatorData: the authenticator data, if sent.
    ///   - transports: the authenticator's transports, if sent.
    ///   - publicKey: the DER SubjectPublicKeyInfo of the credential key, if sent.
    ///   - publicKeyAlgorithm: the COSE algorithm of the credential key, if sent.
    ///   - attestationObject: the CBOR attestation object.
    public init(
        clientDataJSON: Base64URL,
        authenticatorData: Base64URL? = nil,
        transports: [AuthenticatorTransport]? = nil,
        publicKey: Base64URL? = nil,
        publicKeyAlgorithm: Int? = nil,
        attestationObject: Base64URL
    ) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.transports = transports
        self.publicKey = publicKey
        self.publicKeyAlgorithm = publicKeyAlgorithm
        self.attestationObject = attestationObject
    }
}
