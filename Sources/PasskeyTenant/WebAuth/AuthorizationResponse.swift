import HTTPTypes
import WebAuthn

/// An authorization response — `code` and `state`, or `error`, `error_description` and `state`
/// (RFC 6749 §4.1.2, §4.1.2.1) — and how it goes back to the client's trusted redirect URI: the
/// request's `response_mode`.
///
/// - `query`, the default for `code`: a 302 to `redirect_uri?code=…&state=…` (OAuth 2.0 Multiple
///   Response Type Encoding Practices §2.1).
/// - `fragment`: a 302 to `redirect_uri#code=…&state=…` (same, §2.1).
/// - `form_post`: a page whose form POSTs the parameters to the redirect URI, submitted by the
///   tenant's script (OAuth 2.0 Form Post Response Mode §2); its CSP's `form-action` is the
///   redirect URI's origin.
/// - `web_message` (Auth0's, as auth0-spa-js reads it): a page whose script posts
///   `{type: "authorization_response", response: {…}}` to `window.opener || window.parent` with
///   the redirect URI's origin as `targetOrigin`; only that origin may frame it.
///
/// `web_message` is used only when the redirect URI's origin is one of the client's Allowed Web
/// Origins (``WebAuthAPI/authorize(query:sessionCookie:secure:host:)`` checks it).
struct AuthorizationResponse: Sendable, Hashable, Codable {
    /// `response_mode`.
    enum Mode: String, Sendable, Hashable, Codable {
        case query
        case fragment
        case formPost = "form_post"
        case webMessage = "web_message"
    }

    /// One parameter of the response.
    struct Parameter: Sendable, Hashable, Codable {
        var name: String
        var value: String
    }

    /// The client's redirect URI, an Allowed Callback URL.
    var redirectURI: String
    var mode: Mode
    /// The parameters, in order.
    var parameters: [Parameter]

    /// A response; parameters whose value is nil are left out.
    init(redirectURI: String, mode: Mode, _ parameters: [(String, String?)]) {
        self.redirectURI = redirectURI
        self.mode = mode
        self.parameters = parameters.compactMap { name, value in value.map { Parameter(name: name, value: $0) } }
    }

    /// A refusal: `error`, `error_description` and `state` (RFC 6749 §4.1.2.1).
    static func error(
        _ error: String, _ description: String, state: String?, redirectURI: String, mode: Mode
    ) -> AuthorizationResponse {
        AuthorizationResponse(
            redirectURI: redirectURI, mode: mode,
            [("error", error), ("error_description", description), ("state", state)])
    }

    /// Where a `query` or `fragment` response sends the browser; nil for the modes that answer
    /// with a page.
    var location: String? {
        let encoded = parameters.map { "\($0.name)=\(PercentEncoding.encode($0.value))" }.joined(separator: "&")
        switch mode {
        case .query: return redirectURI + (redirectURI.contains("?") ? "&" : "?") + encoded
        case .fragment: return redirectURI + "#" + encoded
        case .formPost, .webMessage: return nil
        }
    }

    /// The answer to the browser.
    var browserResponse: BrowserResponse {
        if let location { return .redirect(location) }
        // The redirect URI is an Allowed Callback URL, an absolute URL: it has an origin.
        let origin = AllowedOrigin.of(redirectURI) ?? "'none'"
        var response: BrowserResponse
        if mode == .formPost {
            response = .page(
                .ok, HTMLPage.formPost(action: redirectURI, parameters: parameters.map { ($0.name, $0.value) }))
            response.formAction = origin
        } else {
            let members = parameters.map { ($0.name, JSONValue.string($0.value)) }
            let message = String(
                decoding: WebAuthnJSON.encode(JSONValue.object(Dictionary(members) { first, _ in first })),
                as: UTF8.self)
            response = .page(.ok, HTMLPage.webMessage(targetOrigin: origin, response: message))
            response.frameAncestor = origin
        }
        return response
    }
}
