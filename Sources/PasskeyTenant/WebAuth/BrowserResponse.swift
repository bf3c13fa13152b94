import HTTPTypes
import Hummingbird
import NIOCore

/// What the tenant answers a browser with on its Web Auth pages: an HTML page or a redirect,
/// with the cookies to set, and the security headers every such answer carries.
///
/// Headers (CSP Level 3, RFC 7034, RFC 9111 §5.2.2.5, Referrer Policy,
/// Fetch §3.7): `Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self';
/// img-src 'self'; connect-src 'self' <pageConnectSources>; form-action 'self'; base-uri 'none';
/// frame-ancestors 'none'`, `X-Frame-Options: DENY`, `Cache-Control: no-store`,
/// `Referrer-Policy: no-referrer`, `X-Content-Type-Options: nosniff`. Two answers of
/// ``AuthorizationResponse`` change one directive: a `form_post` page's `form-action` is the
/// redirect URI's origin, and a `web_message` page's `frame-ancestors` is the redirect URI's origin,
/// without `X-Frame-Options` (which cannot name an origin), so that origin's hidden iframe can load it.
struct BrowserResponse: Sendable {
    /// The answer's kind.
    enum Body: Sendable {
        /// An HTML page with a status.
        case page(status: HTTPResponse.Status, html: String)
        /// A 302 to a URL (RFC 6749 §4.1.2).
        case redirect(location: String)
    }

    var body: Body
    /// `Set-Cookie` values.
    var cookies: [String] = []
    /// The one origin a form on the page may submit to, instead of `'self'`.
    var formAction: String?
    /// The one origin that may frame the page, instead of none.
    var frameAncestor: String?

    /// An HTML page.
    static func page(_ status: HTTPResponse.Status, _ html: String, cookies: [String] = []) -> BrowserResponse {
        BrowserResponse(body: .page(status: status, html: html), cookies: cookies)
    }

    /// A 302 redirect.
    static func redirect(_ location: String, cookies: [String] = []) -> BrowserResponse {
        BrowserResponse(body: .redirect(location: location), cookies: cookies)
    }

    /// The page's `Content-Security-Policy`, with `connectSources` added to `connect-src`, and
    /// `formAction` and `frameAncestor` instead of `'self'` and `'none'` when given.
    static func contentSecurityPolicy(
        connectSources: [String], formAction: String? = nil, frameAncestor: String? = nil
    ) -> String {
        let connect = (["'self'"] + connectSources).joined(separator: " ")
        return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src \(connect); "
            + "form-action \(formAction ?? "'self'"); base-uri 'none'; frame-ancestors \(frameAncestor ?? "'none'")"
    }

    /// The security headers of every page, redirect and page asset; `formAction` and
    /// `frameAncestor` as ``contentSecurityPolicy(connectSources:formAction:frameAncestor:)`` takes
    /// them (no `X-Frame-Options` with a `frameAncestor`).
    static func securityHeaders(
        connectSources: [String], formAction: String? = nil, frameAncestor: String? = nil
    ) -> HTTPFields {
        var headers: HTTPFields = [
            .contentSecurityPolicy: contentSecurityPolicy(
                connectSources: connectSources, formAction: formAction, frameAncestor: frameAncestor),
            .cacheControl: "no-store", .referrerPolicy: "no-referrer", .xContentTypeOptions: "nosniff",
        ]
        if frameAncestor == nil { headers[.xFrameOptions] = "DENY" }
        return headers
    }

    /// A `Set-Cookie` value: HttpOnly, `SameSite=Lax` — or `SameSite=None` for a `crossSite`
    /// cookie under TLS —, Secure when the tenant serves TLS (RFC 6265bis §4.1), and `Max-Age` when
    /// given (0 deletes the cookie).
    ///
    /// The login session cookie (`passkey_session`) is `crossSite`, as Auth0 sets its own session
    /// cookie `SameSite=None; Secure`: silent authentication in a hidden iframe
    /// (`prompt=none&response_mode=web_message`) from an application on another site than the
    /// tenant's is a cross-site subrequest, which carries only a `None` cookie (RFC 6265bis §5.4.7).
    /// Over plain http it stays `Lax`, as a browser refuses `SameSite=None` without `Secure`; an
    /// iframe then finds the session only from the tenant's own site (`http://localhost:3000`
    /// beside `http://localhost:PORT`: the port is not part of the site), and another site gets
    /// `login_required`. Browsers that block third-party cookies (Chromium 156 does by default)
    /// refuse even `None` in the iframe; auth0-spa-js's refresh tokens (`useRefreshTokens`) need
    /// no cookie at all. Its deletion (at logout) takes the same attributes, so that a cross-site
    /// answer may delete it too.
    ///
    /// What `None` gives up (RFC 6265bis §8.8: `SameSite` is defence in depth against CSRF) is
    /// covered elsewhere, since the session cookie is read only by `GET /authorize` and
    /// `GET /v2/logout`:
    /// - `/authorize` with a session answers only the client's registered redirect URI (a
    ///   `web_message` only to its Allowed Web Origin, as `targetOrigin`), PKCE binds the code to
    ///   the application that began the request, and its pages are never framed by another origin
    ///   (`frame-ancestors`); a cross-site page that makes the browser ask learns nothing.
    /// - `/v2/logout` can end the session from another site — as a top-level navigation can with
    ///   `Lax` already, and as Auth0's does.
    /// - The login page's API (`/u/passkey/*`), which creates sessions and users, never reads the
    ///   session cookie: it takes the transaction cookie `passkey_tx`, which stays `Lax` (and on
    ///   `/u/` only), in a double submit with the JSON body, and refuses an `Origin` other than the
    ///   page's; a cross-site request has neither the cookie nor the body.
    ///
    /// - Parameters:
    ///   - name: the cookie's name.
    ///   - value: its value.
    ///   - path: its `Path`.
    ///   - secure: whether the tenant serves TLS.
    ///   - crossSite: whether it goes with cross-site subrequests too, when `secure`.
    ///   - maxAge: its `Max-Age` in seconds; nil for a session cookie, 0 to delete it.
    /// - Returns: the header's value.
    static func cookie(
        _ name: String, _ value: String, path: String, secure: Bool, crossSite: Bool = false, maxAge: Int? = nil
    ) -> String {
        let sameSite = secure && crossSite ? "None" : "Lax"
        var parts = ["\(name)=\(value)", "HttpOnly", "SameSite=\(sameSite)", "Path=\(path)"]
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        if secure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }

    /// The Hummingbird response.
    func response(connectSources: [String]) -> Response {
        var headers = Self.securityHeaders(
            connectSources: connectSources, formAction: formAction, frameAncestor: frameAncestor)
        for cookie in cookies {
            headers.append(HTTPField(name: .setCookie, value: cookie))
        }
        switch body {
        case .page(let status, let html):
            headers[.contentType] = "text/html; charset=utf-8"
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
        case .redirect(let location):
            headers[.location] = location
            return Response(status: .found, headers: headers)
        }
    }
}

extension HTTPField.Name {
    /// `X-Frame-Options` (RFC 7034).
    // Force-unwrapped: a constant, valid header name.
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    /// `Referrer-Policy` (Referrer Policy §4.1).
    // Force-unwrapped: a constant, valid header name.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
