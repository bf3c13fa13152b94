import FoundationEssentials
import WebAuthn

/// The client credentials a token or revocation request presents, and how (RFC 6749 §2.3.1;
/// OpenID Connect Core 1.0 §9): in `Authorization: Basic` (`client_secret_basic`), as
/// `client_secret` in the body (`client_secret_post`), or none, a public client naming itself
/// with `client_id` (`none`).
///
/// Basic's credentials are `base64(urlencode(client_id) ":" urlencode(client_secret))`: the ID and
/// secret are `application/x-www-form-urlencoded` before they are joined (RFC 6749 §2.3.1,
/// Appendix B), so both are decoded after splitting at the first colon.
///
/// ```
/// Authorization: Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW
/// ```
struct ClientCredentials: Sendable {
    /// The client ID presented.
    let clientID: String
    /// The secret presented, if any.
    let secret: Secret?
    /// How it was presented.
    let method: TenantApplication.TokenEndpointAuthMethod

    /// Reads a request's credentials: its `Authorization` header (scheme lower-cased, as
    /// ``TenantServices/authorization(_:)`` gives it) and its body's `client_id` and `client_secret`.
    /// A header of another scheme than Basic is not client authentication and is ignored.
    ///
    /// - Parameters:
    ///   - authorization: the `Authorization` header's scheme and credentials, if any.
    ///   - bodyClientID: the body's `client_id`; empty when absent.
    ///   - bodySecret: the body's `client_secret`, if any.
    /// - Throws: `invalid_client` (401) for Basic credentials that are empty, not base64, have no colon,
    ///   are not form-urlencoded UTF-8 or name no client, for a secret both in the header and in
    ///   the body (RFC 6749 §2.3: one method per request), and for a body `client_id` that is not
    ///   the header's; `invalid_request` for a request that names no client at all.
    init(authorization: (scheme: String, token: Secret)?, bodyClientID: String, bodySecret: Secret?)
        throws(TenantError)
    {
        guard let authorization, authorization.scheme == "basic" else {
            guard !bodyClientID.isEmpty else { throw .invalidRequest("client_id: missing") }
            self.clientID = bodyClientID
            self.secret = bodySecret
            self.method = bodySecret == nil ? .none : .clientSecretPost
            return
        }
        guard bodySecret == nil else {
            throw Self.refused("Client credentials are given both in the Authorization header and in the body.")
        }
        guard !authorization.token.text.isEmpty else {
            throw Self.refused("The Basic credentials are empty.")
        }
        guard let bytes = try? Base64URL.decode(authorization.token.text),
            let text = String(validating: bytes, as: UTF8.self)
        else {
            throw Self.refused("The Basic credentials are not base64 of UTF-8 text.")
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw Self.refused("The Basic credentials have no colon between client ID and secret.")
        }
        guard let clientID = Self.formDecoded(text[..<colon]),
            let secret = Self.formDecoded(text[text.index(after: colon)...])
        else {
            throw Self.refused("The Basic credentials are not form-urlencoded (RFC 6749 §2.3.1).")
        }
        guard !clientID.isEmpty else { throw Self.refused("The Basic credentials name no client.") }
        guard bodyClientID.isEmpty || bodyClientID == clientID else {
            throw Self.refused("The body's client_id is not the one of the Authorization header.")
        }
        self.clientID = clientID
        self.secret = Secret(secret)
        self.method = .clientSecretBasic
    }

    /// An `invalid_client` refusal.
    private static func refused(_ detail: String) -> TenantError {
        TenantError(.invalidClient, status: 401, detail)
    }

    /// `text` read as an `application/x-www-form-urlencoded` value (WHATWG URL §5.1: `+` is a
    /// space, `%XX` a byte); nil when a `%` is not followed by two hex digits or the bytes are
    /// not UTF-8, which ``PercentEncoding/decode(_:)`` would pass through unchanged.
    static func formDecoded(_ text: Substring) -> String? {
        let spaced = String(text).replacing("+", with: " ")
        var rest = Array(spaced.utf8)[...]
        var escapes = 0
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else { continue }
            guard rest.count >= 2, rest.prefix(2).allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit })
            else { return nil }
            rest = rest.dropFirst(2)
            escapes += 1
        }
        let decoded = PercentEncoding.decode(spaced)
        // A well-formed escape always shortens the text: unchanged text means the bytes were not UTF-8.
        return escapes > 0 && decoded == spaced ? nil : decoded
    }
}
