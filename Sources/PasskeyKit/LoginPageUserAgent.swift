public import Auth0Passkeys
import FoundationEssentials
public import Logging
import PasskeyAuthenticator
import WebAuthn

/// A user agent with no browser: it reads the local tenant's login page and runs the page's
/// passkey ceremony with a ``VirtualDevice``, as the page's script would in a browser, then hands
/// back the redirect to the application. What a regular web application's tests use to log a
/// user in through the authorization code flow (RFC 6749 §4.1) without starting a browser.
///
/// For each ``open(_:awaitingRedirectTo:)``, as a fresh browser profile would:
///
/// 1. `GET /authorize?…`: the login page, its `data-transaction` and its `passkey_tx` cookie;
///    redirects are followed (the tenant sends a page reached at `127.0.0.1` to `localhost`, an
///    origin within its RP ID) until the page, or a redirect to the application (an error) that
///    is returned as it is;
/// 2. `POST /u/passkey/options` with the transaction and the ceremony (`login`, or `signup` with
///    an identifier), the cookie and the page's `Origin`: WebAuthn L3 options in JSON;
/// 3. the device's `navigator.credentials.get` (or `.create`), with the device's origin:
///    `https://<rpId>` by default, which the tenant accepts as its own;
/// 4. `POST /u/passkey/verify` with `PublicKeyCredential.toJSON()`: the redirect URI with
///    `code` and `state`, returned.
///
/// ```swift
/// let auth = try Authentication(clientId: webAppID, baseURL: "http://127.0.0.1:41234")
/// let credentials = try await WebAuth(authentication: auth)
///     .redirectURL("http://127.0.0.1:3000/callback")
///     .clientAuthentication(.clientSecretBasic(ClientSecret(webAppSecret)))
///     .start(using: LoginPageUserAgent(device: device))
/// ```
///
/// The page API is the local tenant's (`/u/passkey/*`, **[local]** in auth0-passkey-api.md); a
/// real Auth0 tenant's Universal Login needs a browser (`PasskeyBrowser`). Requests go through the
/// package's HTTP client (no retries, the wire trace redacted: `Cookie` and `Set-Cookie` too);
/// the page's calls carry no `Auth0-Client` header, as a browser's do not.
public struct LoginPageUserAgent: WebAuthUserAgent {
    /// The page's ceremony.
    public enum Ceremony: Sendable, Hashable {
        /// A login with a passkey of the device (discoverable: the device picks its most recent).
        case logIn
        /// A signup of a new user named by `identifier`: an email, a phone number starting with
        /// `+`, or a username.
        case signUp(identifier: String)
    }

    /// The device whose passkey answers the page.
    public var device: VirtualDevice
    /// What the page is asked to do.
    public var ceremony: Ceremony
    private let client: HTTPClient

    /// Creates a user agent for `device`.
    ///
    /// - Parameters:
    ///   - device: the device that answers the page's passkey request.
    ///   - ceremony: login (the default) or signup.
    ///   - transport: what sends each request; share the application's to share its connections.
    ///   - logger: where to log the page's requests (redacted); nothing by default.
    public init(
        device: VirtualDevice, ceremony: Ceremony = .logIn, transport: any HTTPTransport = CurlTransport(),
        logger: Logger? = nil
    ) {
        self.device = device
        self.ceremony = ceremony
        self.client = HTTPClient(transport: transport, clientInfo: nil, logger: logger)
    }

    /// Runs the page at `url` and returns the redirect it sends the browser to.
    ///
    /// - Parameters:
    ///   - url: the tenant's `/authorize` URL.
    ///   - redirectURL: the application's callback URL.
    /// - Returns: the redirect: `redirectURL` with `code` and `state`, or with `error`.
    /// - Throws: ``PasskeyFlowError``: ``PasskeyFlowError/authentication(_:)`` when the tenant
    ///   refuses a step or does not answer, ``PasskeyFlowError/device(_:)`` when the device refuses
    ///   the ceremony.
    public func open(_ url: String, awaitingRedirectTo redirectURL: String) async throws -> String {
        var pageURL = url
        var page: HTTPResponse
        var hops = 0
        // Redirects are followed as a browser follows them (the tenant sends a page reached at an
        // address outside its RP ID to one within it) until one goes to the application.
        while true {
            page = try await send(
                HTTPRequest(method: .get, url: pageURL, headers: [(name: "Accept", value: "text/html")]))
            guard (300...399).contains(page.status), let location = page.header("Location") else { break }
            let next = Self.resolve(location, against: pageURL)
            if WebAuthCallback(next, redirectURL: redirectURL) != nil { return next }
            hops += 1
            guard hops <= Self.maxRedirects else { throw PasskeyFlowError.authentication(.errorResponse(page)) }
            pageURL = next
        }
        guard page.status == 200 else { throw PasskeyFlowError.authentication(.errorResponse(page)) }
        let transaction = try Self.transaction(in: page)
        let origin = Self.origin(of: pageURL)
        let headers = [
            (name: "Content-Type", value: "application/json"), (name: "Accept", value: "application/json"),
            (name: "Origin", value: origin), (name: "Cookie", value: Self.cookies(of: page)),
        ]
        let options: PageOptions = try await post(
            origin + "/u/passkey/options", OptionsBody(transaction: transaction, ceremony: ceremony), headers)
        let verified: VerifyAnswer
        do {
            switch options {
            case .get(let request):
                let assertion = try await device.get(request, rpID: request.rpId ?? Self.host(origin))
                verified = try await post(
                    origin + "/u/passkey/verify", VerifyBody(transaction: transaction, credential: assertion), headers)
            case .create(let creation):
                let registration = try await device.create(creation, rpID: creation.rp.id ?? Self.host(origin))
                verified = try await post(
                    origin + "/u/passkey/verify", VerifyBody(transaction: transaction, credential: registration),
                    headers)
            }
        } catch let error as WebAuthnClientError {
            throw PasskeyFlowError.device(error)
        }
        return verified.redirect
    }

    /// One exchange, its transport failure as the flow's error.
    private func send(_ request: HTTPRequest) async throws(PasskeyFlowError) -> HTTPResponse {
        do {
            return try await client.perform(request, retryable: false)
        } catch {
            throw .authentication(.transportFailure(error))
        }
    }

    /// A JSON POST of the page API, its answer decoded.
    private func post<Answer: Decodable>(
        _ url: String, _ body: some Encodable, _ headers: [(name: String, value: String)]
    ) async throws(PasskeyFlowError) -> Answer {
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONEncoder().encode(body))
        } catch {
            throw .authentication(.decodingFailure(error, status: 0))
        }
        let response = try await send(HTTPRequest(method: .post, url: url, headers: headers, body: bytes))
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

    /// The `Cookie` header a browser sends back: each `Set-Cookie`'s name and value (RFC 6265 §5.4).
    private static func cookies(of response: HTTPResponse) -> String {
        response.headers.filter { $0.name.lowercased() == "set-cookie" }
            .map { String($0.value.prefix { $0 != ";" }) }
            .joined(separator: "; ")
    }

    /// How many redirects the user agent follows before it gives up, as a browser does (Fetch
    /// §4.4: 20).
    static let maxRedirects = 20

    /// A `Location` read against the URL that sent it (RFC 9110 §10.2.2): absolute, or a path
    /// on the same origin.
    private static func resolve(_ location: String, against url: String) -> String {
        if location.contains("://") { return location }
        return origin(of: url) + (location.hasPrefix("/") ? "" : "/") + location
    }

    /// The page's origin, `scheme://host[:port]` of its URL: where its script's calls go, and
    /// their `Origin` (RFC 6454 §7).
    private static func origin(of url: String) -> String {
        guard let separator = url.firstRange(of: "://") else { return url }
        return String(url[..<separator.upperBound] + url[separator.upperBound...].prefix { !"/?#".contains($0) })
    }

    /// The host of an origin, without its port: the RP ID when the options name none.
    private static func host(_ origin: String) -> String {
        (try? WebOrigin(origin).host) ?? origin
    }

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
            }
        }
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
