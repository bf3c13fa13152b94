/// The tenant's server-rendered HTML: a page shell with the login page's script and stylesheet,
/// and the text escaping every interpolated value goes through (HTML Living Standard §13.1).
///
/// No page has inline script or style: the CSP (``BrowserResponse``) allows only the tenant's own
/// `/u/passkey.js` and `/u/passkey.css`.
enum HTMLPage {
    /// `text` with `& < > " '` written as character references, safe in element content and in a
    /// quoted attribute value.
    static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }

    /// A whole document: `title` (escaped here) and `body` (already HTML).
    static func document(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>\(escape(title))</title>
        <link rel="stylesheet" href="/u/passkey.css">
        <script src="/u/passkey.js" defer></script>
        </head>
        <body>
        <main>
        \(body)
        </main>
        </body>
        </html>

        """
    }

    /// A page that only says something: an error (an unknown client, a redirect URI that is not
    /// allowed) or "You are logged out".
    static func message(title: String, text: String) -> String {
        document(title: title, body: "<h1>\(escape(title))</h1>\n<p id=\"message\">\(escape(text))</p>")
    }

    /// A `response_mode=form_post` page (OAuth 2.0 Form Post Response Mode §2): a form POSTing
    /// `parameters` as hidden fields to `action`, which the tenant's script submits on load; with
    /// script off, its button does.
    static func formPost(action: String, parameters: [(String, String)]) -> String {
        let fields = parameters.map { name, value in
            "<input type=\"hidden\" name=\"\(escape(name))\" value=\"\(escape(value))\">"
        }
        let body = """
            <h1>Continue</h1>
            <form id="authorization-response" method="post" action="\(escape(action))">
            \(fields.joined(separator: "\n"))
            <button type="submit">Continue</button>
            </form>
            """
        return document(title: "Continue", body: body)
    }

    /// A `response_mode=web_message` page (Auth0's): the tenant's script posts
    /// `{type: "authorization_response", response: <response>}` to `window.opener || window.parent`
    /// with `targetOrigin` as the target, so no other origin can read it.
    ///
    /// - Parameters:
    ///   - targetOrigin: the redirect URI's origin, one of the client's Allowed Web Origins.
    ///   - response: the response's members as a JSON object.
    static func webMessage(targetOrigin: String, response: String) -> String {
        let body = """
            <h1>Returning to the application</h1>
            <p id="web-message" data-origin="\(escape(targetOrigin))" data-response="\(escape(response))"></p>
            """
        return document(title: "Returning to the application", body: body)
    }

    /// The login and signup page (auth0-passkey-api.md §14.1; **[local]**): the transaction in
    /// `#passkey-form[data-transaction]`, the identifier field conditional mediation runs on,
    /// the two ceremony buttons, the `#cancel` button (back to the application with
    /// `access_denied`), and the `#error` line the script writes to.
    ///
    /// - Parameters:
    ///   - transaction: the transaction ID (also the `passkey_tx` cookie).
    ///   - domain: the tenant's domain, shown as who asks.
    ///   - signupFirst: whether signup is the page's first screen (`screen_hint=signup`).
    ///   - loginHint: the identifier to pre-fill.
    ///   - autostart: whether the script starts the first screen's ceremony on load
    ///     (`data-autostart`).
    ///   - emailOnly: whether the identifier is an email (the connection requires one), or any of
    ///     email, phone number and username (auth0-passkey-api.md §18).
    ///   - connections: the upstream connections' names and `/authorize` links, each a plain
    ///     "Continue with NAME" link in `#connections` (no script, so the CSP stays as it is).
    ///   - passwords: whether the connection takes passwords: then `#password` and the
    ///     `#password-login` and `#password-signup` buttons follow the passkey buttons.
    ///   - captcha: whether bot detection is on: then `#captcha`, its answer.
    static func login(
        transaction: String, domain: String, signupFirst: Bool, loginHint: String?, autostart: Bool = false,
        emailOnly: Bool = true, connections: [(name: String, href: String)] = [], passwords: Bool = false,
        captcha: Bool = false
    ) -> String {
        let title = signupFirst ? "Sign up" : "Log in"
        let value = loginHint.map { " value=\"\(escape($0))\"" } ?? ""
        let login = "<button id=\"login\" type=\"button\">Continue with a passkey</button>"
        let signup = "<button id=\"signup\" type=\"button\">Sign up with a passkey</button>"
        let buttons = signupFirst ? signup + "\n" + login : login + "\n" + signup
        let body = """
            <h1>\(title)</h1>
            <p class="lead">to continue to \(escape(domain))</p>
            <form id="passkey-form" data-transaction="\(escape(transaction))" data-screen="\(signupFirst ? "signup" : "login")"\(autostart ? " data-autostart=\"true\"" : "")>
            <label for="identifier">\(emailOnly ? "Email address" : "Email, phone number or username")</label>
            <input id="identifier" name="identifier" type="\(emailOnly ? "email" : "text")" autocomplete="username webauthn"\(value)>
            \(buttons)\(passwords ? "\n" + passwordFields(captcha: captcha) : "")
            <button id="cancel" type="button">Cancel</button>
            <p id="error" role="alert"></p>
            </form>
            """
            + (connections.isEmpty
                ? ""
                : "\n<nav id=\"connections\">\n"
                    + connections.map { name, href in
                        "<a class=\"connection\" href=\"\(escape(href))\">Continue with \(escape(name))</a>"
                    }.joined(separator: "\n") + "\n</nav>")
        return document(title: "\(title) · \(domain)", body: body)
    }

    /// The login page's password fields, as Universal Login offers a password beside
    /// a passkey: the password, bot detection's answer when it is on, and the two buttons.
    static func passwordFields(captcha: Bool) -> String {
        let answer =
            captcha
            ? "\n<label for=\"captcha\">Verification answer</label>\n"
                + "<input id=\"captcha\" name=\"captcha\" type=\"text\" autocomplete=\"off\">"
            : ""
        return """
            <label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password">\(answer)
            <button id="password-login" type="button">Continue with password</button>
            <button id="password-signup" type="button">Sign up with password</button>
            """
    }
}
