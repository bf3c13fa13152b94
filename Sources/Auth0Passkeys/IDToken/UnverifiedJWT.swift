import FoundationEssentials
import JWTKit
import WebAuthn

/// A JWT (RFC 7519) taken apart without validating it: its signature (RFC 7515) is not checked.
/// For an ID token the tenant handed over TLS that is only shown (``CredentialsManager/user``,
/// `passkey demo`), never to decide what to trust; ``IDTokenValidator`` is for that.
///
/// ```
/// token = BASE64URL(header) "." BASE64URL(payload) "." BASE64URL(signature)   ; RFC 7515 §7.1
/// ```
///
/// jwt-kit's parser splits it, as it does every JWS the client and the tenant read.
public struct UnverifiedJWT: Sendable {
    /// The JOSE header: a JSON object's UTF-8 bytes, as the token carries them.
    public let header: [UInt8]
    /// The payload, the claims: a JSON object's UTF-8 bytes, as the token carries them.
    public let payload: [UInt8]

    /// Takes a compact JWS apart.
    ///
    /// - Parameter token: the compact serialization.
    /// - Returns: `nil` unless it has three parts whose first two are base64url.
    public init?(_ token: String) {
        guard let parts = try? DefaultJWTParser().getTokenParts(Array(token.utf8)),
            let header = try? Base64URL.decode(String(decoding: parts.header, as: UTF8.self)),
            let payload = try? Base64URL.decode(String(decoding: parts.payload, as: UTF8.self))
        else { return nil }
        self.header = header
        self.payload = payload
    }

    /// The payload's claims, decoded as a JSON object; `nil` when it is not one.
    var claims: [String: JSONValue]? {
        try? JSONDecoder().decode([String: JSONValue].self, from: Data(payload))
    }
}
