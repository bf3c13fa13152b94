import Auth0Passkeys
import Hummingbird
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyControl
import PasskeyKit
import Synchronization
import TestSupport
import Testing
import WebAuthn

/// Related Origin Requests (WebAuthn L3 §5.11) through the page bridge: a page of
/// `http://shop.localhost:5000` asks for the RP ID `example.com`, whose `/.well-known/webauthn`
/// a real loopback server serves to the service's libcurl fetcher.
@Suite struct RelatedOriginsBridgeTests {
    static let listed = "http://shop.localhost:5000"
    static let unlisted = "http://other.localhost:5000"
    static let wellKnown = "https://example.com/.well-known/webauthn"

    /// Takes the fetcher's `https://example.com/…` request to the loopback server over plain
    /// HTTP through the real `CurlTransport` (the test's stand-in for DNS and TLS), and nothing else.
    struct LoopbackTransport: HTTPTransport {
        let server: String
        let curl = CurlTransport()

        func send(_ request: Auth0Passkeys.HTTPRequest) async throws(TransportError) -> Auth0Passkeys.HTTPResponse {
            guard request.url == RelatedOriginsBridgeTests.wellKnown else {
                throw TransportError(.cannotResolveHost, "only \(RelatedOriginsBridgeTests.wellKnown) is served here")
            }
            var routed = request
            routed.url = server + request.path
            return try await curl.send(routed)
        }
    }

    /// How many times the document was fetched.
    final class Fetches: Sendable {
        let count = Mutex(0)
    }

    /// Serves example.com's document listing only ``listed`` and runs `body` with a control server
    /// whose service fetches it (or fetches nothing, `fetching: false`) and the count of fetches.
    static func withRelyingParty(
        fetching: Bool = true, _ body: @Sendable (ControlClient, Fetches) async throws -> Void
    ) async throws {
        let router = Router()
        let hits = Fetches()
        router.get("/.well-known/webauthn") { _, _ in
            hits.count.withLock { $0 += 1 }
            var headers: HTTPFields = [:]
            headers[.contentType] = "application/json"
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"origins":["\#(listed)"]}"#)))
        }
        try await Application(router: router).test(.live) { server in
            let transport = LoopbackTransport(server: "http://127.0.0.1:\(server.port ?? 0)")
            let service = ControlService(relatedOrigins: fetching ? .http(transport) : nil)
            try await withControlServer(service: service) { client in try await body(client, hits) }
        }
    }

    @Test func aListedOriginSignsUpAndLogsInThroughTheBridgeAndAnUnlistedOneIsRefused() async throws {
        try await Self.withRelyingParty { client, hits in
            let bridge = try await PageBridgeTests.Bridge(client)
            #expect(bridge.configuration["capabilities"]?["relatedOrigins"]?.boolValue == true)
            let (creation, challenge) = PageBridgeTests.options(creationOptions(rpID: "example.com"))
            let created = try await bridge.call("create", PageBridgeTests.ceremony(creation), origin: Self.listed)
            #expect(created.status == 200, "\(created.text)")
            let relyingParty = RelyingParty(id: "example.com", origins: [Self.listed])
            let record = try relyingParty.verifyRegistration(
                PageBridgeTests.registration(created), challenge: challenge
            ).record()

            let loginChallenge = SecureRandom.bytes(16)
            let got = try await bridge.call(
                "get", PageBridgeTests.ceremony(requestOptions(rpID: "example.com", challenge: loginChallenge)),
                origin: Self.listed)
            #expect(got.status == 200, "\(got.text)")
            _ = try relyingParty.verifyAuthentication(
                PageBridgeTests.assertion(got), challenge: loginChallenge, credential: record)

            let before = try await bridge.credentials()
            for command in ["create", "get"] {
                let options =
                    command == "create"
                    ? creationOptions(rpID: "example.com", user: "eve")
                    : requestOptions(rpID: "example.com", challenge: SecureRandom.bytes(16))
                let refused = try await bridge.call(command, PageBridgeTests.ceremony(options), origin: Self.unlisted)
                #expect(refused.status == 400 && refused.error == "SecurityError", "\(refused.text)")
                #expect(refused.value?["message"]?.stringValue?.contains("does not list") == true, "\(refused.text)")
            }
            // A conditional get is checked against the document before it waits.
            let conditional = try await bridge.call(
                "get",
                PageBridgeTests.ceremony(
                    requestOptions(rpID: "example.com", challenge: [1]), extra: #","mediation":"conditional""#),
                origin: Self.unlisted)
            #expect(conditional.error == "SecurityError", "\(conditional.text)")
            #expect(try await bridge.credentials() == before)
            #expect(hits.count.withLock { $0 } == 5)
        }
    }

    @Test func withoutAFetcherTheServiceRefusesAtOnceAndFetchesNothing() async throws {
        try await Self.withRelyingParty(fetching: false) { client, hits in
            let bridge = try await PageBridgeTests.Bridge(client)
            #expect(bridge.configuration["capabilities"]?["relatedOrigins"]?.boolValue == false)
            let refused = try await bridge.call(
                "create", PageBridgeTests.ceremony(creationOptions(rpID: "example.com")), origin: Self.listed)
            #expect(refused.error == "SecurityError", "\(refused.text)")
            #expect(refused.value?["message"]?.stringValue?.contains("is neither") == true, "\(refused.text)")
            #expect(hits.count.withLock { $0 } == 0)
        }
    }
}
