import Auth0Passkeys
import FoundationEssentials
import Logging
import Synchronization
import WebAuthn

/// A transport that records every request and answers from a script: the request-shape and
/// credentials-manager tests' view of "Auth0" when the exact answer matters (a lifetime, a
/// count of refreshes, an error body).
final class ScriptedTransport: HTTPTransport {
    typealias Answer = @Sendable (HTTPRequest, Int) -> Result<HTTPResponse, TransportError>

    private let recorded = Mutex<[HTTPRequest]>([])
    private let answer: Answer
    private let delay: Duration

    /// - Parameters:
    ///   - delay: how long each answer takes.
    ///   - answer: the answer to the request, given the request and its 0-based index.
    init(delay: Duration = .zero, answer: @escaping Answer) {
        self.delay = delay
        self.answer = answer
    }

    /// Answers every request with the same status and JSON body.
    convenience init(status: Int = 200, json: String, headers: [(name: String, value: String)] = []) {
        self.init { _, _ in .success(HTTPResponse(status: status, headers: headers, body: Array(json.utf8))) }
    }

    var requests: [HTTPRequest] { recorded.withLock { $0 } }

    /// The body of request `index` as text.
    func body(_ index: Int = 0) -> String {
        String(decoding: requests[index].body ?? [], as: UTF8.self)
    }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let index = recorded.withLock { requests in
            requests.append(request)
            return requests.count - 1
        }
        if delay > .zero { try? await Task.sleep(for: delay) }
        return try answer(request, index).get()
    }

    /// A client that sends through this transport, with no waiting between retries.
    func client(retryPolicy: RetryPolicy = RetryPolicy(), logger: Logger? = nil) -> HTTPClient {
        HTTPClient(transport: self, retryPolicy: retryPolicy, logger: logger, sleep: { _ in })
    }

    func authentication(retryPolicy: RetryPolicy = RetryPolicy(), logger: Logger? = nil) throws -> Authentication {
        try Authentication(
            clientId: Fixtures.clientID, baseURL: "https://login.example.com",
            client: client(retryPolicy: retryPolicy, logger: logger))
    }

    func myAccount() throws -> MyAccount {
        try MyAccount(token: "AT-my-account", baseURL: "https://login.example.com", client: client())
    }
}

/// Values the tests share.
enum Fixtures {
    static let clientID = "k3S9pQ2vXc7LmN0aB1dE4fG6hJ8"

    static let signupChallenge = """
        {"auth_session":"Sx1.pq7Lr0-signup-session-opaque","authn_params_public_key":{\
        "challenge":"nTXfsQXD8KSV6zvN0MxIhtTrBJtZuVHXonxDMbQYPrc","timeout":60000,\
        "rp":{"id":"login.example.com","name":"login.example.com"},\
        "user":{"id":"uOKcVB2PU486niGkaj1TzCo0a15AkM1QD1Z_3WGANJI","name":"ada@example.com","displayName":"Ada Example"},\
        "pubKeyCredParams":[{"type":"public-key","alg":-8},{"type":"public-key","alg":-7},{"type":"public-key","alg":-257}],\
        "authenticatorSelection":{"residentKey":"required","userVerification":"preferred"}}}
        """

    static let loginChallenge = """
        {"auth_session":"Lg4.xN2b-login-session-opaque","authn_params_public_key":{\
        "challenge":"vs4lGAgo9k86cyH_czNLS2uwuszrxyMgxTdAjF0qmiY","timeout":60000,\
        "rpId":"login.example.com","userVerification":"preferred"}}
        """

    static func tokens(expiresIn: String = "86400", refreshToken: String? = "v1.Mr5-refresh-opaque") -> String {
        let refresh = refreshToken.map { #","refresh_token":"\#($0)""# } ?? ""
        return #"{"access_token":"AT-1","id_token":"\#(idToken)","token_type":"Bearer","expires_in":\#(expiresIn),"#
            + #""scope":"openid profile email offline_access"\#(refresh)}"#
    }

    /// An unsigned JWT whose payload has `sub`, `name` and `email`.
    static let idToken =
        "eyJhbGciOiJSUzI1NiJ9."
        + Base64URL.encode(Array(#"{"sub":"auth0|ada","name":"Ada","email":"ada@example.com"}"#.utf8))
        + ".c2ln"

    /// A passkey with fixed bytes, for the wire shape of the requests.
    struct Passkey: SignupPasskey, LoginPasskey {
        var credentialID = Data([0x72, 0x96, 0x55, 0x53])
        var attachment: AuthenticatorAttachment? = .platform
        var rawClientDataJSON = Data(#"{"type":"webauthn.get"}"#.utf8)
        var rawAttestationObject = Data([0xA3, 0x63, 0x66, 0x6D, 0x74])
        var rawAuthenticatorData = Data([0x01, 0x02, 0x03])
        var signature = Data([0x30, 0x45, 0xFF])
        var userID = Data([0xB8, 0xE2, 0x9C])
    }
}
