import Auth0Passkeys
import Foundation
import HummingbirdWSClient
import Logging
import PasskeyControl
import Synchronization
import TestSupport
import Testing
import WebAuthn

/// The page bridge's relay capability (`POST …/relay`, `POST /bridge/relay`) and its socket
/// (`GET /bridge/socket`), over loopback: libcurl for HTTP, Hummingbird's WebSocket client for the
/// socket. (Relays in real browsers: Tests/Browser.)
@Suite struct BridgeRelayTests {
    typealias Bridge = PageBridgeTests.Bridge
    static let page = PageBridgeTests.page

    /// A relay's capability for `bridge`'s authenticator, from the control API.
    static func relay(_ bridge: Bridge, origins: [String] = []) async throws -> JSONValue {
        let origins = origins.map { "\"\($0)\"" }.joined(separator: ",")
        let answer = try await bridge.client.send(.post, bridge.path + "/relay", #"{"origins":[\#(origins)]}"#)
        #expect(answer.status == 200, "\(answer.text)")
        return try #require(answer.value)
    }

    /// `POST /bridge/relay` with `capability`.
    static func relayed(_ bridge: Bridge, capability: String, _ body: String) async throws -> ControlClient.Answer {
        try await ControlClient(baseURL: bridge.client.baseURL, token: nil).send(
            .post, "/bridge/relay", body, headers: [(name: "Authorization", value: "Bearer \(capability)")])
    }

    static func message(_ route: String, origin: String?, topOrigin: String? = nil, _ body: String) -> String {
        let origin = origin.map { #","origin":"\#($0)""# } ?? ""
        let top = topOrigin.map { #","topOrigin":"\#($0)""# } ?? ""
        return #"{"route":"\#(route)"\#(origin)\#(top),"body":\#(body)}"#
    }

    @Test func aRelayStatesTheOriginThePageCannotAndOnlyARelayMay() async throws {
        try await withControlServer { client in
            let bridge = try await Bridge(client)
            let grant = try await Self.relay(bridge, origins: [Self.page, "https://shop.example"])
            let capability = try #require(grant["capability"]?.stringValue)
            #expect(grant["endpoint"]?.stringValue == client.baseURL + "/bridge")
            #expect(
                grant["socket"]?.stringValue == "ws://" + client.baseURL.dropFirst("http://".count) + "/bridge/socket")
            #expect(capability != bridge.capability)
            // The relay's grant is handed out with the control token only.
            let stranger = ControlClient(baseURL: client.baseURL, token: nil)
            #expect(try await stranger.send(.post, bridge.path + "/relay", "{}").status == 401)

            let (creation, challenge) = PageBridgeTests.options(creationOptions(rpID: "localhost"))
            let created = try await Self.relayed(
                bridge, capability: capability,
                Self.message("create", origin: Self.page, PageBridgeTests.ceremony(creation)))
            #expect(created.status == 200, "\(created.text)")
            let party = RelyingParty(id: "localhost", origins: [Self.page])
            let registration = try party.verifyRegistration(
                try PageBridgeTests.registration(created), challenge: challenge)

            // A frame's top-level origin is the relay's word, not the body's.
            let requestChallenge = SecureRandom.bytes(32)
            let options = requestOptions(rpID: "localhost", challenge: requestChallenge)
            let framed = try await Self.relayed(
                bridge, capability: capability,
                Self.message(
                    "get", origin: Self.page, topOrigin: "https://shop.example",
                    PageBridgeTests.ceremony(options, extra: #","topOrigin":"https://evil.example""#)))
            #expect(framed.status == 200, "\(framed.text)")
            let clientData = try JSONValue(json: try PageBridgeTests.assertion(framed).response.clientDataJSON.bytes)
            #expect(clientData["topOrigin"]?.stringValue == "https://shop.example")
            #expect(clientData["crossOrigin"]?.boolValue == true)
            _ = try RelyingParty(
                ids: ["localhost"], origins: [Self.page], allowsCrossOrigin: true, topOrigins: ["https://shop.example"]
            ).verifyAuthentication(
                try PageBridgeTests.assertion(framed), challenge: requestChallenge, credential: registration.record())

            // A page's capability cannot state an origin; a relay may state only its origins.
            let before = try await bridge.credentials()
            let fresh = PageBridgeTests.ceremony(creationOptions(rpID: "localhost", user: "bob"))
            let byPage = try await Self.relayed(
                bridge, capability: bridge.capability, Self.message("create", origin: Self.page, fresh))
            #expect(byPage.status == 401 && byPage.error == "unauthorized", "\(byPage.text)")
            let elsewhere = try await Self.relayed(
                bridge, capability: capability, Self.message("create", origin: "https://app.example", fresh))
            #expect(elsewhere.status == 403, "\(elsewhere.text)")
            let phishing = try await Self.relayed(
                bridge, capability: capability, Self.message("create", origin: "https://shop.example", fresh))
            #expect(phishing.error == "SecurityError", "\(phishing.text)")
            for garbage in [
                Self.message("create", origin: nil, fresh), Self.message("mint", origin: Self.page, fresh),
                Self.message("create", origin: "not an origin", fresh), #"{"route":"create","origin":"#,
                Self.message("create", origin: Self.page, #"{"options":7}"#),
            ] {
                let answer = try await Self.relayed(bridge, capability: capability, garbage)
                #expect((400..<500).contains(answer.status), "\(garbage): \(answer.text)")
            }
            let unknown = try await Self.relayed(
                bridge, capability: "nonsense", Self.message("create", origin: Self.page, fresh))
            #expect(unknown.status == 401, "\(unknown.text)")
            #expect(try await bridge.credentials() == before)
        }
    }

    @Test func aPageSocketAnswersEachMessageForTheHandshakesOrigin() async throws {
        try await withControlServer { client in
            let bridge = try await Bridge(client)
            let socket = try #require(bridge.configuration["socket"]?.stringValue)
            let before = try await bridge.credentials()
            // Hummingbird's client sends `Origin: ws://127.0.0.1`, which may not claim "localhost".
            let answers = try await Self.exchange(
                socket, hello: bridge.capability,
                [
                    #"{"id":1,"route":"create","body":\#(PageBridgeTests.ceremony(creationOptions(rpID: "localhost")))}"#,
                    #"{"id":2,"route":"create","origin":"\#(Self.page)","body":{}}"#, "not json", #"{"id":4}"#,
                ])
            #expect(answers.first??["ready"]?.boolValue == true)
            let byID = Self.byID(answers.dropFirst())
            // The handshake's origin, not the body's or the message's, is the page's.
            #expect(byID["1"]?["value"]?["error"]?.stringValue == "SecurityError", "\(answers)")
            #expect(byID["2"]?["value"]?["message"]?.stringValue?.contains("cannot state") == true)
            #expect(byID["null"]?["status"]?.numberValue == 400)
            #expect(byID["4"]?["status"]?.numberValue == 400)
            #expect(try await bridge.credentials() == before)
            // An unknown capability is told so, and the connection ends.
            let refused = try await Self.exchange(socket, hello: "nonsense", [])
            #expect(refused[0]?["error"]?.stringValue == "unauthorized")
        }
    }

    @Test func aRelaySocketRunsCeremoniesConcurrentlyAndItsCloseAbortsAConditionalGet() async throws {
        try await withControlServer { client in
            let bridge = try await Bridge(client)
            let grant = try await Self.relay(bridge)
            let socket = try #require(grant["socket"]?.stringValue)
            let capability = try #require(grant["capability"]?.stringValue)
            let (creation, challenge) = PageBridgeTests.options(creationOptions(rpID: "localhost"))
            let conditional = PageBridgeTests.ceremony(
                requestOptions(rpID: "localhost", challenge: SecureRandom.bytes(16)),
                extra: #","mediation":"conditional""#)
            // The conditional get waits; the create after it is answered meanwhile; closing ends the get.
            let answers = try await Self.exchange(
                socket, hello: capability,
                [
                    #"{"id":1,"route":"get","origin":"\#(Self.page)","body":\#(conditional)}"#,
                    #"{"id":2,"route":"create","origin":"\#(Self.page)","body":\#(PageBridgeTests.ceremony(creation))}"#,
                ], until: 1)
            let created = try #require(Self.byID(answers.dropFirst())["2"]?["value"]?.json, "\(answers)")
            _ = try RelyingParty(id: "localhost", origins: [Self.page]).verifyRegistration(
                try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: created), challenge: challenge)
            // Nothing is left pending for a pick once the socket is gone.
            let pick = try await client.send(.post, bridge.path + "/conditional", #"{"timeout":300}"#)
            #expect(pick.status == 404, "\(pick.text)")
        }
    }

    /// Answers by their `id` (`null` for a message that had none).
    static func byID(_ answers: ArraySlice<JSONValue?>) -> [String: JSONValue] {
        var byID: [String: JSONValue] = [:]
        for case let answer? in answers {
            byID[answer["id"]?.numberValue.map { String(Int($0)) } ?? "null"] = answer
        }
        return byID
    }

    /// Connects to `url`, sends the hello and `messages`, and reads answers until `until` have
    /// come after the hello's (all of them by default) or the server closes; then closes.
    static func exchange(_ url: String, hello: String, _ messages: [String], until: Int? = nil) async throws
        -> [JSONValue?]
    {
        let received = Mutex<[JSONValue?]>([])
        let wanted = 1 + (until ?? messages.count)
        try await WebSocketClient.connect(url: url, logger: Logger(label: "bridge-socket-test")) {
            inbound, outbound, _ in
            try await outbound.write(.text(#"{"capability":"\#(hello)"}"#))
            for message in messages {
                try await outbound.write(.text(message))
            }
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message else { continue }
                let count = received.withLock {
                    $0.append(try? JSONValue(json: Array(text.utf8)))
                    return $0.count
                }
                if count >= wanted { break }
            }
        }
        return received.withLock { $0 }
    }
}
