import Auth0Passkeys
import Hummingbird
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyKit
import Synchronization
import Testing
import WebAuthn

/// Related Origin Requests (WebAuthn L3 §5.11): `https://shop.example.net` asks for the RP ID
/// `example.com`, which it may not claim, and the client reads `example.com`'s
/// `/.well-known/webauthn` through the libcurl fetcher from a real server on loopback.
@Suite struct RelatedOriginsTests {
    static let caller = try! WebOrigin("https://shop.example.net")
    static let wellKnown = "https://example.com/.well-known/webauthn"

    /// Takes the fetcher's `https://example.com/…` request to the loopback server over plain HTTP,
    /// through the real ``CurlTransport``: the test's stand-in for DNS and TLS. It sends nothing
    /// for any other URL, so a client that asked for another one fails the test.
    struct LoopbackTransport: HTTPTransport {
        let server: String
        let curl = CurlTransport()

        func send(_ request: Auth0Passkeys.HTTPRequest) async throws(TransportError) -> Auth0Passkeys.HTTPResponse {
            guard request.method == .get, request.url == RelatedOriginsTests.wellKnown else {
                throw TransportError(.cannotResolveHost, "only \(RelatedOriginsTests.wellKnown) is served here")
            }
            var routed = request
            routed.url = server + request.path
            return try await curl.send(routed)
        }
    }

    /// What the relying party's server answers.
    struct Document: Sendable, CustomTestStringConvertible {
        let name: String
        var status = 200
        var contentType: String? = "application/json"
        var location: String?
        let body: String
        /// A fragment of the `SecurityError`'s message, or `nil` when the origin is accepted.
        let refusal: String?

        var testDescription: String { name }
    }

    static let fiveOtherLabels = [
        "https://a1.com", "https://a2.com", "https://a3.com", "https://a4.com", "https://a5.com",
    ]

    static let documents = [
        Document(
            name: "listed", body: #"{"origins":["https://example.co.uk","https://shop.example.net"]}"#, refusal: nil),
        Document(
            name: "listed, with a charset parameter and a trailing slash",
            contentType: "Application/JSON; charset=utf-8", body: #"{"origins":["https://shop.example.net/"]}"#,
            refusal: nil),
        Document(
            name: "listed after five labels, its own among them",
            body: origins(Array(fiveOtherLabels.prefix(4)) + ["https://example.org", "https://shop.example.net"]),
            refusal: nil),
        Document(
            name: "not listed", body: origins(["https://example.co.uk", "https://shop.example.org"]),
            refusal: "does not list https://shop.example.net"),
        Document(
            name: "listed after five other labels", body: origins(fiveOtherLabels + ["https://shop.example.net"]),
            refusal: "past the limit"),
        Document(
            name: "listed with another port", body: origins(["https://shop.example.net:8443"]),
            refusal: "does not list"),
        Document(name: "not JSON", body: "<html>origins</html>", refusal: "is not a JSON object"),
        Document(name: "a JSON array", body: #"["https://shop.example.net"]"#, refusal: "is not a JSON object"),
        Document(
            name: "no origins", body: #"{"origin":["https://shop.example.net"]}"#, refusal: "no \"origins\" array"),
        Document(
            name: "origins not strings", body: #"{"origins":[["https://shop.example.net"]]}"#, refusal: "not a string"),
        Document(
            name: "served as text/html", contentType: "text/html", body: origins(["https://shop.example.net"]),
            refusal: "text/html, not application/json"),
        Document(
            name: "served with no content type", contentType: nil, body: origins(["https://shop.example.net"]),
            refusal: "not application/json"),
        Document(
            name: "a redirect", status: 302, location: "https://shop.example.net/.well-known/webauthn",
            body: origins(["https://shop.example.net"]), refusal: "302, a redirect, which is not followed"),
        Document(name: "not found", status: 404, body: "{}", refusal: "answered 404"),
    ]

    static func origins(_ list: [String]) -> String {
        #"{"origins":["# + list.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
    }

    /// Serves `document` at `/.well-known/webauthn` on a loopback port, counting requests, and runs
    /// `body` with a client whose fetcher reaches it.
    static func serving(
        _ document: Document, _ body: @Sendable (WebAuthnClient, Hits) async throws -> Void
    ) async throws {
        let router = Router()
        let hits = Hits()
        router.get("/.well-known/webauthn") { _, _ in
            hits.count()
            var headers: HTTPFields = [:]
            headers[.contentType] = document.contentType
            headers[.location] = document.location
            return Response(
                status: .init(code: document.status), headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(string: document.body)))
        }
        try await Application(router: router).test(.live) { server in
            let transport = LoopbackTransport(server: "http://127.0.0.1:\(server.port ?? 0)")
            let client = WebAuthnClient(
                authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore()),
                relatedOrigins: .http(transport))
            try await body(client, hits)
        }
    }

    final class Hits: Sendable {
        private let value = Mutex(0)
        func count() { value.withLock { $0 += 1 } }
        var total: Int { value.withLock { $0 } }
    }

    static func creationOptions(rpID: String = "example.com") -> PublicKeyCredentialCreationOptionsJSON {
        PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: "Example", id: rpID),
            user: PublicKeyCredentialUserEntityJSON(id: Base64URL([7]), name: "ada", displayName: "Ada"),
            challenge: Base64URL(SecureRandom.bytes(32)), pubKeyCredParams: [PublicKeyCredentialParameters(alg: -7)])
    }

    @Test(arguments: documents)
    func theDocumentDecides(_ document: Document) async throws {
        try await Self.serving(document) { client, hits in
            let creation = Self.creationOptions()
            guard let refusal = document.refusal else {
                let registration = try await client.create(creation, origin: Self.caller)
                let clientData = try CollectedClientData(bytes: registration.response.clientDataJSON.bytes)
                #expect(clientData.origin == "https://shop.example.net")
                let relyingParty = RelyingParty(id: "example.com", origins: ["https://shop.example.net"])
                let verified = try relyingParty.verifyRegistration(registration, challenge: creation.challenge.bytes)
                let request = PublicKeyCredentialRequestOptionsJSON(
                    challenge: Base64URL(SecureRandom.bytes(32)), rpId: "example.com")
                let assertion = try await client.get(request, origin: Self.caller)
                _ = try relyingParty.verifyAuthentication(
                    assertion, challenge: request.challenge.bytes, credential: verified.record())
                #expect(hits.total == 2)
                return
            }
            let error = await #expect(throws: WebAuthnClientError.self) {
                try await client.create(creation, origin: Self.caller)
            }
            #expect(error?.name == .security)
            #expect(error?.message.contains(refusal) == true, "\(error?.message ?? "")")
            #expect(hits.total == 1)
        }
    }

    @Test func aFailedFetchIsRefused() async throws {
        // Port 1 on loopback: nothing listens, the connection is refused.
        let client = WebAuthnClient(
            authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore()),
            relatedOrigins: .http(LoopbackTransport(server: "http://127.0.0.1:1")))
        let error = await #expect(throws: WebAuthnClientError.self) {
            try await client.create(Self.creationOptions(), origin: Self.caller)
        }
        #expect(error?.name == .security)
        #expect(error?.message.contains("could not be fetched") == true, "\(error?.message ?? "")")
    }

    /// Without a fetcher the client refuses as it always did, and an RP ID that is not a domain
    /// of its own (a public suffix, an IP address, a name with a path) is never looked up.
    @Test func noFetcherOrNoDomainMeansNoFetch() async throws {
        let listed = Document(name: "listed", body: Self.origins(["https://shop.example.net"]), refusal: nil)
        try await Self.serving(listed) { client, hits in
            var plain = client
            plain.relatedOrigins = nil
            let error = await #expect(throws: WebAuthnClientError.self) {
                try await plain.create(Self.creationOptions(), origin: Self.caller)
            }
            #expect(error?.message.contains("neither https://shop.example.net's host") == true)
            for rpID in ["com", "co.uk", "127.0.0.1", "example.com/x?", "example.com:443", "exa mple.com"] {
                let refused = await #expect(throws: WebAuthnClientError.self) {
                    try await client.create(Self.creationOptions(rpID: rpID), origin: Self.caller)
                }
                #expect(refused?.name == .security, "\(rpID)")
            }
            #expect(hits.total == 0)
        }
    }
}
