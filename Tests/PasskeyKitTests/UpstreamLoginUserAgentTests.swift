import Auth0Passkeys
import FoundationEssentials
import PasskeyAuthenticator
import PasskeyKit
import Synchronization
import Testing
import WebAuthn

/// ``LoginPageUserAgent`` through an upstream provider (issue 40), over a scripted wire that
/// plays tenant A (`http://127.0.0.1:4000`) and provider B (`https://localhost:8443`) as
/// CONTRACT40 describes them: A → B → the invoke URL (answered by the device, never fetched) →
/// B's continue URL → A's callback → the app; and A → B's login page → A → the app. Each hop's
/// cookies must come back to their own host and port only.
@Suite struct UpstreamLoginUserAgentTests {
    static let a = "http://127.0.0.1:4000"
    static let b = "https://localhost:8443"
    static let app = "http://127.0.0.1/callback"
    static let invoke = "http://127.0.0.1/invoke"
    static let request = "R3qu3st-s3cr3t-0123456789abcdefghijklmnopq"
    static let authenticate = "\(b)/embedded/authenticate?request=\(request)"

    /// The wire: each request recorded, each answered as A or B would.
    final class Wire: HTTPTransport {
        let recorded = Mutex<[HTTPRequest]>([])
        let challenge = Base64URL(SecureRandom.bytes(32))
        let embedded: Bool

        init(embedded: Bool) { self.embedded = embedded }

        var requests: [HTTPRequest] { recorded.withLock { $0 } }

        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            recorded.withLock { $0.append(request) }
            let url = request.url
            func redirect(_ location: String, _ cookies: [String] = []) -> HTTPResponse {
                HTTPResponse(
                    status: 302, headers: [(name: "Location", value: location)] + cookies.map { ("Set-Cookie", $0) })
            }
            func json(_ text: String) -> HTTPResponse { HTTPResponse(status: 200, body: Array(text.utf8)) }
            let options = #"{"challenge":"\#(challenge.string)","rpId":"localhost","timeout":60000}"#
            switch (request.method, url.prefix { $0 != "?" }) {
            case (.get, "\(a)/authorize"):
                return redirect(
                    "\(b)/authorize?client_id=a-at-b&state=upstream",
                    ["passkey_upstream=upstream; Path=/login/callback; HttpOnly; SameSite=Lax"])
            case (.get, "\(b)/authorize"):
                if embedded {
                    return redirect("\(invoke)?url=\(PercentEncoding.encode(authenticate))")
                }
                return HTTPResponse(
                    status: 200, headers: [("Set-Cookie", "passkey_tx=tx1; Path=/u/; HttpOnly; Secure")],
                    body: Array(#"<form id="passkey-form" data-transaction="t&amp;1"></form>"#.utf8))
            case (.post, "\(b)/u/passkey/options"):
                guard request.header("Cookie") == "passkey_tx=tx1", request.header("Origin") == b else { break }
                return json(#"{"mode":"get","publicKey":\#(options)}"#)
            case (.post, "\(b)/u/passkey/verify"):
                guard request.header("Cookie") == "passkey_tx=tx1" else { break }
                return json(#"{"redirect":"\#(a)/login/callback?code=b-code&state=upstream"}"#)
            case (.get, "\(b)/embedded/authenticate"):
                return json(#"{"publicKey":\#(options)}"#)
            case (.post, "\(b)/embedded/authenticate"):
                let body = String(decoding: request.body ?? [], as: UTF8.self)
                if body == #"{"error":"access_denied"}"# {
                    return json(#"{"redirectUrl":"\#(a)/login/callback?error=access_denied&state=upstream"}"#)
                }
                return json(#"{"redirectUrl":"\#(b)/embedded/continue?request=once"}"#)
            case (.get, "\(b)/embedded/continue"):
                return redirect(
                    "\(a)/login/callback?code=b-code&state=upstream", ["passkey_session=b; Path=/; Secure; HttpOnly"])
            case (.get, "\(a)/login/callback"):
                // A's cookie only: B's session cookie stays at B's host and port.
                guard request.header("Cookie") == "passkey_upstream=upstream" else { break }
                let error = url.contains("error=access_denied")
                return redirect(
                    error
                        ? "\(app)?error=access_denied&error_description=denied&state=app"
                        : "\(app)?code=a-code&state=app",
                    ["passkey_session=a; Path=/; HttpOnly"])
            default: break
            }
            return HTTPResponse(status: 400, body: Array(#"{"error":"unexpected","error_description":"\#(url)"}"#.utf8))
        }

        /// The `clientDataJSON` of the assertion posted to `path`.
        func clientData(postedTo path: String) throws -> CollectedClientData {
            let post = try #require(requests.first { $0.method == .post && $0.path == path })
            let body = try JSONDecoder().decode([String: JSONValue].self, from: Data(post.body ?? []))
            let encoded = try #require(body["credential"]?.objectValue?["response"]?.objectValue?["clientDataJSON"])
            return try CollectedClientData(bytes: Base64URL.decode(#require(encoded.stringValue)))
        }
    }

    /// A device with a discoverable passkey for `localhost`, B's RP ID.
    static func device() async throws -> VirtualDevice {
        let device = VirtualDevice(store: InMemoryCredentialStore())
        _ = try await device.create(
            PublicKeyCredentialCreationOptionsJSON(
                rp: PublicKeyCredentialRpEntity(name: "B", id: "localhost"),
                user: PublicKeyCredentialUserEntityJSON(id: Base64URL([7]), name: "ada", displayName: "Ada"),
                challenge: Base64URL(SecureRandom.bytes(32)), pubKeyCredParams: [PublicKeyCredentialParameters(alg: -7)]
            ),
            rpID: "localhost")
        return device
    }

    @Test func theEmbeddedModeIsAnsweredByTheDeviceAndFollowedBackToTheApp() async throws {
        let wire = Wire(embedded: true)
        let agent = LoginPageUserAgent(device: try await Self.device(), invokeURL: Self.invoke, transport: wire)
        let redirect = try await agent.open(
            "\(Self.a)/authorize?client_id=app&connection=b", awaitingRedirectTo: Self.app)
        #expect(redirect == "\(Self.app)?code=a-code&state=app")
        #expect(
            wire.requests.map { "\($0.method.rawValue) \($0.url.prefix { $0 != "?" })" } == [
                "GET \(Self.a)/authorize", "GET \(Self.b)/authorize", "GET \(Self.b)/embedded/authenticate",
                "POST \(Self.b)/embedded/authenticate", "GET \(Self.b)/embedded/continue",
                "GET \(Self.a)/login/callback",
            ])
        #expect(!wire.requests.contains { $0.url.hasPrefix(Self.invoke) }, "the invoke URL is never fetched")
        let clientData = try wire.clientData(postedTo: "/embedded/authenticate")
        #expect(clientData.type == .get && clientData.origin == "https://localhost")
        #expect(clientData.challenge == wire.challenge.string)
    }

    /// A device that refuses (no passkey for B) cancels at the authenticate URL; B's error
    /// redirect goes through A to the app as `access_denied`.
    @Test func aRefusalCancelsAndTheAppHearsAccessDenied() async throws {
        let wire = Wire(embedded: true)
        let agent = LoginPageUserAgent(
            device: VirtualDevice(store: InMemoryCredentialStore()), invokeURL: Self.invoke, transport: wire)
        let redirect = try await agent.open(
            "\(Self.a)/authorize?client_id=app&connection=b", awaitingRedirectTo: Self.app)
        #expect(redirect.hasPrefix("\(Self.app)?error=access_denied"))
        #expect(wire.requests.last?.url == "\(Self.a)/login/callback?error=access_denied&state=upstream")
    }

    /// Without an invoke URL, the redirect there is fetched as any other: the app's agent does not
    /// answer an invocation it was not given.
    @Test func anInvocationIsAnsweredOnlyAtTheInvokeURL() async throws {
        let wire = Wire(embedded: true)
        let agent = LoginPageUserAgent(device: try await Self.device(), transport: wire)
        await #expect(throws: PasskeyFlowError.self) {
            _ = try await agent.open("\(Self.a)/authorize?client_id=app", awaitingRedirectTo: Self.app)
        }
        #expect(!wire.requests.contains { $0.path == "/embedded/authenticate" })
    }

    @Test func thePageDrivenModeRunsBsPageAtBsOriginThenGoesBackThroughA() async throws {
        let wire = Wire(embedded: false)
        let agent = LoginPageUserAgent(device: try await Self.device(), invokeURL: Self.invoke, transport: wire)
        let redirect = try await agent.open(
            "\(Self.a)/authorize?client_id=app&connection=b", awaitingRedirectTo: Self.app)
        #expect(redirect == "\(Self.app)?code=a-code&state=app")
        let verify = try #require(wire.requests.first { $0.path == "/u/passkey/verify" })
        let body = try JSONDecoder().decode([String: JSONValue].self, from: Data(verify.body ?? []))
        #expect(body["transaction"] == .string("t&1"))
        #expect(try wire.clientData(postedTo: "/u/passkey/verify").origin == "https://localhost")
    }

    /// `authenticate(url:passkey:)` with a bare authenticator: the redirect URL it returns is B's
    /// continue URL.
    @Test func authenticateWithAnyAuthenticator() async throws {
        let wire = Wire(embedded: true)
        let device = try await Self.device()
        let next = try await EmbeddedAuthentication(transport: wire).authenticate(
            url: Self.authenticate, passkey: device.authenticator)
        #expect(next == "\(Self.b)/embedded/continue?request=once")
    }
}
