public import Auth0Passkeys
import FoundationEssentials
public import Logging
public import PasskeyAuthenticator
public import WebAuthn

/// A user agent with no browser: it follows the redirects of a login through every origin on its
/// way (the application's tenant, an upstream identity provider, back), runs the local tenant's
/// login page with a ``VirtualDevice`` wherever one is served, as the page's script would in a
/// browser, answers a provider's **invoke URL** as an embedded SDK does, and hands back the
/// redirect to the application. What a regular web application's tests use to log a user in
/// through the authorization code flow (RFC 6749 §4.1) without starting a browser.
///
/// For each ``open(_:awaitingRedirectTo:)``, as a fresh browser profile would, with one
/// `CookieJar` for every hop (kept per host and port):
///
/// 1. `GET` the URL; a redirect is followed (the tenant sends a page reached at `127.0.0.1` to
///    `localhost`, an origin within its RP ID; `/authorize?connection=NAME` sends the browser to
///    the upstream provider, whose answer comes back to the tenant's `/login/callback`) until a
///    login page, or a redirect to the application, which is returned as it is (the code, or an
///    error);
/// 2. a login page (its `data-transaction`) is run at its own origin and RP ID: `POST
///    /u/passkey/options` with the transaction and the ceremony (`login`, or `signup` with an
///    identifier), the page's cookies and `Origin`, then the device's
///    `navigator.credentials.get` (or `.create`) with the device's origin (`https://<rpId>` by
///    default, which the tenant accepts as its own), then `POST /u/passkey/verify` with
///    `PublicKeyCredential.toJSON()`; its redirect is followed as in 1 (a
///    ``Ceremony/password(identifier:password:signUp:)`` posts the page's password form,
///    `POST /u/passkey/password`, instead);
/// 3. a redirect to ``invokeURL`` carrying an authenticate URL (the provider's embedded mode)
///    is not fetched: the device logs in there, or, when it refuses, the login is cancelled
///    there (`access_denied`: `EmbeddedAuthentication/invoke(url:device:choosing:)`); the URL
///    either answers is followed with the same cookies, as an app opens it in a second web
///    session sharing the first one's cookie store.
///
/// ```swift
/// let auth = try Authentication(clientId: webAppID, baseURL: "http://127.0.0.1:41234")
/// let credentials = try await WebAuth(authentication: auth)
///     .redirectURL("http://127.0.0.1:3000/callback")
///     .clientAuthentication(.clientSecretBasic(ClientSecret(webAppSecret)))
///     .connection("provider")  // an upstream OpenID Connect connection of the tenant
///     .start(using: LoginPageUserAgent(device: device, invokeURL: "http://127.0.0.1:3000/invoke"))
/// ```
///
/// The page API is the local tenant's (`/u/passkey/*`, **[local]** in auth0-passkey-api.md); a
/// real Auth0 tenant's Universal Login needs a browser (`PasskeyBrowser`). Requests go through the
/// package's HTTP client (no retries, the wire trace redacted: cookies, `Location` queries and the
/// embedded `redirectUrl` too); the page's calls carry no `Auth0-Client` header, as a browser's
/// do not.
public struct LoginPageUserAgent: WebAuthUserAgent {
    /// The page's ceremony.
    public enum Ceremony: Sendable, Hashable {
        /// A login with a passkey of the device (discoverable: the device picks its most recent).
        case logIn
        /// A signup of a new user named by `identifier`: an email, a phone number starting with
        /// `+`, or a username.
        case signUp(identifier: String)
        /// The page's password form, where the connection takes passwords: a login
        /// (`signUp` false) or a signup of `identifier` (an email, or at login a username) with
        /// `password`; no passkey. `POST /u/passkey/password` (**[local]**).
        case password(identifier: String, password: Passphrase, signUp: Bool)

        public static func == (left: Ceremony, right: Ceremony) -> Bool {
            switch (left, right) {
            case (.logIn, .logIn): true
            case (.signUp(let a), .signUp(let b)): a == b
            case (.password(let a, let secret, let new), .password(let b, let other, let alsoNew)):
                a == b && secret.bytes == other.bytes && new == alsoNew
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .logIn: hasher.combine(0)
            case .signUp(let identifier): hasher.combine(identifier)
            case .password(let identifier, let password, let signUp):
                hasher.combine(identifier)
                hasher.combine(password.bytes)
                hasher.combine(signUp)
            }
        }
    }

    /// The device whose passkey answers the page.
    public var device: VirtualDevice
    /// What the page is asked to do.
    public var ceremony: Ceremony
    /// The application's invoke URL, as the provider's client registers it: a redirect there
    /// with an authenticate URL is answered by the device instead of being fetched. `nil` for an
    /// application that has none.
    public var invokeURL: String?
    /// Which passkey the simulated user picks among several for a login (the software
    /// authenticator's account picker); the most recent by default.
    public var accountChoice: AccountChoice
    private let client: HTTPClient

    /// Creates a user agent for `device`.
    ///
    /// - Parameters:
    ///   - device: the device that answers the page's passkey request and the invoke URL's.
    ///   - ceremony: login (the default) or signup.
    ///   - invokeURL: the application's invoke URL at a passkey provider in embedded mode, or `nil`.
    ///   - choice: which passkey a login picks among several; the most recent by default.
    ///   - transport: what sends each request; share the application's to share its connections.
    ///   - logger: where to log the page's requests (redacted); nothing by default.
    public init(
        device: VirtualDevice, ceremony: Ceremony = .logIn, invokeURL: String? = nil,
        choosing choice: AccountChoice = .mostRecent, transport: any HTTPTransport = CurlTransport(),
        logger: Logger? = nil
    ) {
        self.device = device
        self.ceremony = ceremony
        self.invokeURL = invokeURL
        self.accountChoice = choice
        self.client = HTTPClient(transport: transport, clientInfo: nil, logger: logger)
    }

    /// Follows the login from `url` and returns the redirect to the application.
    ///
    /// - Parameters:
    ///   - url: the tenant's `/authorize` URL.
    ///   - redirectURL: the application's callback URL.
    /// - Returns: the redirect: `redirectURL` with `code` and `state`, or with `error`.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/authentication(_:)`` when a tenant
    ///   refuses a step or does not answer, or the hops exceed `maxRedirects` (20);
    ///   ``PasskeyFlowError/device(_:)`` when the device refuses a page's ceremony.
    public func open(_ url: String, awaitingRedirectTo redirectURL: String) async throws -> String {
        let cookies = CookieJar()
        var next = url
        // Redirects and pages are followed as a browser follows them, until one goes to the
        // application.
        for _ in 0...Self.maxRedirects {
            if WebAuthCallback(next, redirectURL: redirectURL) != nil { return next }
            if let invokeURL, let target = EmbeddedAuthentication.authenticateURL(invoking: next, invokeURL: invokeURL)
            {
                next = try await EmbeddedAuthentication(client: client).invoke(
                    url: target, device: device, choosing: accountChoice)
                continue
            }
            guard let page = PageURL(next) else {
                throw PasskeyFlowError.authentication(
                    .invalidConfiguration("A redirect went to a URL that is not http or https."))
            }
            let response = try await send(
                HTTPRequest(method: .get, url: next, headers: headers(accept: "text/html", page, cookies)), page,
                cookies)
            if (300...399).contains(response.status), let location = response.header("Location") {
                next = page.resolve(location)
            } else if response.status == 200 {
                next = try await runPage(response, at: page, cookies)
            } else {
                throw PasskeyFlowError.authentication(.errorResponse(response))
            }
        }
        throw PasskeyFlowError.authentication(
            .invalidConfiguration("The login took more than \(Self.maxRedirects) redirects."))
    }

    /// Runs the login page `page`, served at `url`: its ceremony at its origin and RP ID.
    ///
    /// - Returns: where the page's verify sends the browser.
    private func runPage(_ page: HTTPResponse, at url: PageURL, _ cookies: CookieJar) async throws(PasskeyFlowError)
        -> String
    {
        let transaction = try Self.transaction(in: page)
        if case .password(let identifier, let password, let signUp) = ceremony {
            let answer: VerifyAnswer = try await post(
                url.origin + "/u/passkey/password",
                PasswordBody(
                    transaction: transaction, mode: signUp ? "signup" : "login", identifier: identifier,
                    password: String(decoding: password.bytes, as: UTF8.self)), url, cookies)
            return url.resolve(answer.redirect)
        }
        let options: PageOptions = try await post(
            url.origin + "/u/passkey/options", OptionsBody(transaction: transaction, ceremony: ceremony), url, cookies)
        let verified: VerifyAnswer
        do {
            switch options {
            case .get(let request):
                let assertion = try await device.get(request, rpID: request.rpId ?? url.host, choosing: accountChoice)
                verified = try await post(
                    url.origin + "/u/passkey/verify", VerifyBody(transaction: transaction, credential: assertion), url,
                    cookies)
            case .create(let creation):
                let registration = try await device.create(creation, rpID: creation.rp.id ?? url.host)
                verified = try await post(
                    url.origin + "/u/passkey/verify", VerifyBody(transaction: transaction, credential: registration),
                    url, cookies)
            }
        } catch let error as WebAuthnClientError {
            throw .device(error)
        } catch {
            // post(…) throws only PasskeyFlowError.
            throw error as? PasskeyFlowError ?? .authentication(.decodingFailure(error, status: 0))
        }
        return url.resolve(verified.redirect)
    }

    /// The headers of a request from the page at `page`: `Accept`, the jar's cookies for `url`.
    private func headers(accept: String, _ url: PageURL, _ cookies: CookieJar) -> [(name: String, value: String)] {
        var headers = [(name: "Accept", value: accept)]
        if let cookie = cookies.header(for: url.text) { headers.append((name: "Cookie", value: cookie)) }
        return headers
    }

    /// One exchange, its transport failure as the flow's error; the answer's cookies kept for
    /// `url`'s host and port.
    private func send(_ request: HTTPRequest, _ url: PageURL, _ cookies: CookieJar) async throws(PasskeyFlowError)
        -> HTTPResponse
    {
        let response: HTTPResponse
        do {
            response = try await client.perform(request, retryable: false)
        } catch {
            throw .authentication(.transportFailure(error))
        }
        cookies.store(
            response.headers.filter { $0.name.lowercased() == "set-cookie" }.map(\.value), from: request.url)
        return response
    }

    /// A JSON POST of the page API from the page at `page`, with its `Origin` (RFC 6454 §7) and
    /// cookies, its answer decoded.
    private func post<Answer: Decodable>(
        _ url: String, _ body: some Encodable, _ page: PageURL, _ cookies: CookieJar
    ) async throws(PasskeyFlowError) -> Answer {
        var headers = [(name: "Content-Type", value: "application/json"), (name: "Origin", value: page.origin)]
        headers += self.headers(accept: "application/json", PageURL(url) ?? page, cookies)
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONEncoder().encode(body))
        } catch {
            throw .authentication(.decodingFailure(error, status: 0))
        }
        let response = try await send(
            HTTPRequest(method: .post, url: url, headers: headers, body: bytes), PageURL(url) ?? page, cookies)
        guard response.status == 200 else { throw .authentication(.errorResponse(response)) }
        do {
            return try JSONDecoder().decode(Answer.self, from: Data(response.body))
        } catch {
            throw .authentication(.decodingFailure(error, status: response.status))
        }
    }

    /// The page's `data-transaction` (`#passkey-form`), its HTML character references undone.
    private static func transaction(in page: HTTPResponse) throws(PasskeyFlowError) -> String {
        let html = String(decoding: page.body, as: UTF8.self)
        guard let start = html.firstRange(of: #"data-transaction=""#) else {
            throw .authentication(
                AuthenticationError(
                    info: [
                        "error": .string("invalid_page"),
                        "error_description": .string("The login page has no transaction."),
                    ],
                    statusCode: page.status))
        }
        let escaped = html[start.upperBound...].prefix { $0 != "\"" }
        return [("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")].reduce(
            String(escaped)
        ) { $0.replacing($1.0, with: $1.1) }
    }

    /// How many redirects and pages the user agent follows before it gives up, as a browser does
    /// (Fetch §4.4: 20).
    static let maxRedirects = 20

    /// `POST /u/passkey/options`'s body.
    private struct OptionsBody: Encodable {
        let transaction: String
        let mode: String
        let identifier: String?

        init(transaction: String, ceremony: Ceremony) {
            self.transaction = transaction
            switch ceremony {
            case .logIn: (mode, identifier) = ("login", nil)
            case .signUp(let name): (mode, identifier) = ("signup", name)
            case .password: (mode, identifier) = ("login", nil)
            }
        }
    }

    /// `POST /u/passkey/password`'s body: the password form's fields.
    private struct PasswordBody: Encodable {
        let transaction: String
        let mode: String
        let identifier: String
        let password: String
    }

    /// `POST /u/passkey/options`'s answer: `{"mode": "get" | "create", "publicKey": options}`.
    private enum PageOptions: Decodable {
        case get(PublicKeyCredentialRequestOptionsJSON)
        case create(PublicKeyCredentialCreationOptionsJSON)

        enum CodingKeys: String, CodingKey {
            case mode, publicKey
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch try container.decode(String.self, forKey: .mode) {
            case "get":
                self = .get(try container.decode(PublicKeyCredentialRequestOptionsJSON.self, forKey: .publicKey))
            case "create":
                self = .create(try container.decode(PublicKeyCredentialCreationOptionsJSON.self, forKey: .publicKey))
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .mode, in: container, debugDescription: "not get or create")
            }
        }
    }

    /// `POST /u/passkey/verify`'s body.
    private struct VerifyBody<Credential: Encodable>: Encodable {
        let transaction: String
        let credential: Credential
    }

    /// `POST /u/passkey/verify`'s answer.
    private struct VerifyAnswer: Decodable {
        let redirect: String
    }
}
