/// A ceremony's result as `PublicKeyCredential.toJSON()` gives it (WebAuthn L3 §5.1): the same
/// envelope for both ceremonies, around the authenticator's response.
///
/// ```
/// dictionary RegistrationResponseJSON {               dictionary AuthenticationResponseJSON {
///     required DOMString id;                              required DOMString id;
///     required Base64URLString rawId;                     required Base64URLString rawId;
///     required AuthenticatorAttestationResponseJSON       required AuthenticatorAssertionResponseJSON
///         response;                                           response;
///     DOMString authenticatorAttachment;                  DOMString authenticatorAttachment;
///     required AuthenticationExtensionsClientOutputsJSON  required AuthenticationExtensionsClientOutputsJSON
///         clientExtensionResults;                             clientExtensionResults;
///     required DOMString type;                            required DOMString type;
/// };                                                  };
/// ```
///
/// Decoding ignores unknown members (old Firefox captures carry a top-level `transports`) and
/// reads a missing `clientExtensionResults` as empty, since captures from before Level 3 omit it;
/// encoding always writes it.
public struct PublicKeyCredentialJSON<Response: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    /// The credential ID as base64url text, the same bytes as ``rawId``.
    public var id: String
    /// The credential ID.
    public var rawId: Base64URL
    /// The authenticator's response.
    public var response: Response
    /// How the authenticator was attached, when the client knows.
    public var authenticatorAttachment: AuthenticatorAttachment?
    /// The client extension outputs.
    public var clientExtensionResults: AuthenticationExtensionsClientOutputsJSON
    /// The credential type, `public-key` (``PublicKeyCredentialType``); ``RelyingParty`` refuses a
    /// response of any other type (`wrong-credential-type`).
    public var type: PublicKeyCredentialType

    /// Creates a credential response.
    ///
    /// - Parameters:
    ///   - id: the credential ID as text; `nil` (the default) uses `rawId`'s base64url form.
    ///   - rawId: the credential ID.
    ///   - response: the authenticator's response.
    ///   - authenticatorAttachment: the attachment, if known.
    ///   - clientExtensionResults: the extension outputs; empty by default.
    ///   - type: the credential type.
    public init(
        id: String? = nil,
        rawId: Base64URL,
        response: Response,
        authenticatorAttachment: AuthenticatorAttachment? = nil,
        clientExtensionResults: AuthenticationExtensionsClientOutputsJSON = .init(),
        type: PublicKeyCredentialType = .publicKey
    ) {
        self.id = id ?? rawId.string
        self.rawId = rawId
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = clientExtensionResults
        self.type = type
    }

    enum CodingKeys: String, CodingKey {
        case id, rawId, response, authenticatorAttachment, clientExtensionResults, type
    }

    /// Decodes a response, reading a missing `clientExtensionResults` as empty.
    ///
    /// - Throws: `DecodingError` when a required member is missing or malformed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(String.self, forKey: .id)
        self.rawId = try container.decode(Base64URL.self, forKey: .rawId)
        self.response = try container.decode(Response.self, forKey: .response)
        self.authenticatorAttachment = try container.decodeIfPresent(
            AuthenticatorAttachment.self, forKey: .authenticatorAttachment)
        let extensionResults = try container.decodeIfPresent(
            AuthenticationExtensionsClientOutputsJSON.self, forKey: .clientExtensionResults)
        self.clientExtensionResults = extensionResults ?? .init()
        self.type = try container.decode(PublicKeyCredentialType.self, forKey: .type)
    }
}

/// A response ``PublicKeyCredentialJSON`` wraps, which keeps the envelope's member table: a
/// generic type holds no static table of its own, so each response type holds its envelope's.
package protocol JSONCredentialResponse: JSONObject, Sendable, Hashable {
    /// The members of ``PublicKeyCredentialJSON`` around this response:
    /// ``PublicKeyCredentialJSON/envelope()``.
    static var envelopeMembers: JSONMembers<PublicKeyCredentialJSON<Self>> { get }
}

/// The envelope reads and writes itself through its member table; its `Codable` conformance
/// stays its own, since it holds for any `Codable` response.
extension PublicKeyCredentialJSON: JSONReadable, JSONWritable, JSONObject where Response: JSONCredentialResponse {
    package static var jsonMembers: JSONMembers<Self> { Response.envelopeMembers }

    package static var unread: Self { Self(id: "", rawId: Base64URL([]), response: Response.unread) }

    /// The envelope's members, as ``init(from:)`` reads them.
    static func envelope() -> JSONMembers<Self> {
        JSONMembers(
            [
                .member("id", \.id), .member("rawId", \.rawId), .member("response", \.response),
                .member("authenticatorAttachment", \.authenticatorAttachment),
                .member(
                    "clientExtensionResults", \.clientExtensionResults,
                    default: AuthenticationExtensionsClientOutputsJSON()),
                .member("type", \.type),
            ])
    }
}

extension AuthenticatorAssertionResponseJSON: JSONCredentialResponse {
    package static let envelopeMembers = PublicKeyCredentialJSON<Self>.envelope()
}

extension AuthenticatorAttestationResponseJSON: JSONCredentialResponse {
    package static let envelopeMembers = PublicKeyCredentialJSON<Self>.envelope()
}
