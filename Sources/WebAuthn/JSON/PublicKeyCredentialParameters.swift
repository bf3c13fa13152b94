// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension PublicKeyCredentialParameters: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("type", \.type), .member("alg", \.alg),
        ])

    package static var unread: Self { Self(alg: 0) }
}

/// One credential type and algorithm a relying party accepts (WebAuthn L3 §5.3).
///
/// ```
/// dictionary PublicKeyCredentialParameters {
///     required DOMString type;
///     required COSEAlgorithmIdentifier alg;
/// };
/// ```
///
/// `alg` stays an `Int` rather than a ``COSEAlgorithm`` so that an algorithm this library does
/// not implement (ML-DSA's -48, say) still decodes and round-trips; the client skips it.
public struct PublicKeyCredentialParameters: Sendable, Hashable, Codable {
    /// The credential type, normally `public-key` (``PublicKeyCredentialType``).
    public var type: PublicKeyCredentialType
    /// The COSE algorithm identifier (IANA "COSE Algorithms" registry), e.g. -7 for ES256.
    public var alg: Int

    /// Creates credential parameters.
    ///
    /// - Parameters:
    ///   - type: the credential type.
    ///   - alg: the COSE algorithm identifier.
    public init(type: PublicKeyCredentialType = .publicKey, alg: Int) {
        self.type = type
        self.alg = alg
    }
}
