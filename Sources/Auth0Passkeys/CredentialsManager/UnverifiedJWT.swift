import FoundationEssentials
import WebAuthn

/// The claims of a JWT (RFC 7519) read without validating it: its signature (RFC 7515) is not
/// checked. For an ID token the tenant handed over TLS and the manager only shows
/// (``CredentialsManager/user``), never to decide what to trust.
enum UnverifiedJWT {
    /// The payload's claims: the middle of the three base64url parts, decoded as a JSON object;
    /// `nil` when it is not one.
    static func claims(of token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = try? Base64URL.decode(String(parts[1])) else { return nil }
        return try? JSONDecoder().decode([String: JSONValue].self, from: Data(payload))
    }
}
