import Auth0Passkeys
import Foundation
import Glibc
import MCP
import PasskeyControl
import Synchronization
import TestSupport
import Testing
import WebAuthn

/// The page bridge's server side over loopback with libcurl, as a page's `fetch` reaches it: the
/// script and its capability, ceremonies with the browser-set `Origin`, CORS, conditional
/// mediation, signals and events. (The script itself runs in three engines: Tests/Browser.)
@Suite struct PageBridgeTests {
    static let page = "http://localhost:5000"

    /// A page's bridge: its session, authenticator, capability and configuration.
    struct Bridge {
        let client: ControlClient
        let session: String
        let authenticator: String
        let configuration: JSONValue

        init(_ client: ControlClient, profile: String = "platform", query: String = "", simulate: String? = nil)
            async throws
        {
            self.client = client
            session = try await client.newSession()
            let simulation = simulate.map { #","softpasskey:simulate":"\#($0)""# } ?? ""
            authenticator = try await client.addAuthenticator(
                session, #"{"softpasskey:profile":"\#(profile)"\#(simulation)}"#)
            let script = try await client.send(
                .get, "/session/\(session)/webauthn/authenticator/\(authenticator)/bridge.js\(query)")
            #expect(script.status == 200, "\(script.text)")
            #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
            // `(function softpasskeyBridge(config) {…})({…});`: the configuration is the last call's argument.
            let text = script.text.trimmingCharacters(in: .whitespacesAndNewlines)
            let start = try #require(text.range(of: ")({", options: .backwards)).lowerBound
            let json = text[text.index(start, offsetBy: 2)...].dropLast(2)
            configuration = try JSONValue(json: Array(json.utf8))
        }

        var path: String { "/session/\(session)/webauthn/authenticator/\(authenticator)" }
        var capability: String { configuration["capability"]?.stringValue ?? "" }

        /// A bridge request as a page of `origin` sends it: the capability, no control token.
        func call(
            _ command: String, _ body: String, origin: String? = PageBridgeTests.page, capability: String? = nil
        ) async throws -> ControlClient.Answer {
            var headers = [(name: "Authorization", value: "Bearer \(capability ?? self.capability)")]
            if let origin { headers.append((name: "Origin", value: origin)) }
            return try await ControlClient(baseURL: client.baseURL, token: nil).send(
                .post, "/bridge/\(command)", body, headers: headers)
        }

        func credentials() async throws -> [UInt8] {
            try await client.send(.get, path + "/credentials").body
        }
    }

    static func ceremony(_ options: String, requestID: String = "r1", extra: String = "") -> String {
        #"{"options":\#(options),"requestId":"\#(requestID)"\#(extra)}"#
    }

    static func registration(_ answer: ControlClient.Answer) throws -> RegistrationResponseJSON {
        try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: answer.valueBytes)
    }

    static func assertion(_ answer: ControlClient.Answer) throws -> AuthenticationResponseJSON {
        try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: answer.valueBytes)
    }

    static func options(_ creation: String) -> (text: String, challenge: [UInt8]) {
        let json = try! JSONValue(json: Array(creation.utf8))
        return (creation, try! Base64URL.decode(json["challenge"]!.stringValue!))
    }

    @Test func theScriptCarriesACapabilityForOneAuthenticatorAndWhatItCanDo() async throws {
        try await withControlServer { client in
            let platform = try await Bridge(client)
            #expect(platform.configuration["endpoint"]?.stringValue == client.baseURL + "/bridge")
            #expect(platform.capability.count == 43)
            #expect(platform.configuration["attachment"]?.stringValue == "platform")
            let capabilities = try #require(platform.configuration["capabilities"])
            for key in [
                "conditionalGet", "passkeyPlatformAuthenticator", "userVerifyingPlatformAuthenticator", "extension:prf",
                "signalUnknownCredential", "signalAllAcceptedCredentials", "signalCurrentUserDetails",
            ] {
                #expect(capabilities[key]?.boolValue == true, "\(key)")
            }
            let key = try await Bridge(client, profile: "security-key")
            #expect(key.configuration["attachment"]?.stringValue == "cross-platform")
            #expect(key.configuration["capabilities"]?["passkeyPlatformAuthenticator"]?.boolValue == false)
            #expect(key.capability != platform.capability)
            // The script is handed out with the control token only.
            let stranger = ControlClient(baseURL: client.baseURL, token: nil)
            #expect(try await stranger.send(.get, platform.path + "/bridge.js").status == 401)
            #expect(try await client.send(.get, platform.path + "/bridge.js?origin=nonsense").status == 400)
        }
    }

    @Test func aPageRegistersAndSignsInWithTheOriginItsBrowserSent() async throws {
        try await withControlServer { client in
            let bridge = try await Bridge(client)
            // A preflight carries no Authorization (Fetch Standard §4.8): answered for any origin.
            let preflight = try await Self.exchange(
                port: try #require(URL(string: client.baseURL)?.port),
                "OPTIONS /bridge/create HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: \(Self.page)\r\n"
                    + "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Private-Network: true\r\n\r\n"
            ) { $0.contains("\r\n\r\n") }
            #expect(preflight.hasPrefix("HTTP/1.1 204 No Content\r\n"))
            for line in [
                "Access-Control-Allow-Origin: \(Self.page)",
                "Access-Control-Allow-Headers: authorization, content-type",
                "Access-Control-Allow-Methods: POST", "Access-Control-Allow-Private-Network: true",
            ] {
                #expect(preflight.contains("\r\n\(line)\r\n"), "\(line)")
            }

            let (creation, challenge) = Self.options(creationOptions(rpID: "localhost"))
            let created = try await bridge.call("create", Self.ceremony(creation))
            #expect(created.status == 200, "\(created.text)")
            #expect(created.header("Access-Control-Allow-Origin") == Self.page)
            let party = RelyingParty(id: "localhost", origins: [Self.page])
            let registration = try party.verifyRegistration(try Self.registration(created), challenge: challenge)

            let requestChallenge = SecureRandom.bytes(32)
            let got = try await bridge.call(
                "get", Self.ceremony(requestOptions(rpID: "localhost", challenge: requestChallenge)))
            #expect(got.status == 200, "\(got.text)")
            _ = try party.verifyAuthentication(
                try Self.assertion(got), challenge: requestChallenge, credential: registration.record())
        }
    }

    @Test func aCrossOriginFrameSignsWithItsTopOriginAndASameOriginFrameDoesNot() async throws {
        try await withControlServer { client in
            let bridge = try await Bridge(client)
            let top = "https://shop.example"
            let (creation, challenge) = Self.options(creationOptions(rpID: "localhost"))
            let framed = try await bridge.call("create", Self.ceremony(creation, extra: #","topOrigin":"\#(top)""#))
            #expect(framed.status == 200, "\(framed.text)")
            let response = try Self.registration(framed)
            #expect(throws: WebAuthnError.self) {
                try RelyingParty(id: "localhost", origins: [Self.page]).verifyRegistration(
                    response, challenge: challenge)
            }
            _ = try RelyingParty(ids: ["localhost"], origins: [Self.page], allowsCrossOrigin: true, topOrigins: [top])
                .verifyRegistration(response, challenge: challenge)

            let (again, secondChallenge) = Self.options(creationOptions(rpID: "localhost", user: "bob"))
            let sameOrigin = try await bridge.call(
                "create", Self.ceremony(again, extra: #","topOrigin":"\#(Self.page)""#))
            _ = try RelyingParty(id: "localhost", origins: [Self.page]).verifyRegistration(
                try Self.registration(sameOrigin), challenge: secondChallenge)
        }
    }

    @Test func badBridgeInputIsA4xxTheRightPageCanReadAndChangesNothing() async throws {
        try await withControlServer { client in
            let bridge = try await Bridge(client)
            let other = try await Bridge(client, query: "?origin=https%3A%2F%2Fapp.example")
            let created = try await bridge.call("create", Self.ceremony(creationOptions(rpID: "localhost")))
            #expect(created.status == 200)
            let before = try await bridge.credentials()
            let get = Self.ceremony(requestOptions(rpID: "localhost", challenge: SecureRandom.bytes(16)))

            let cases: [(String, String, String?, String?, Int, String?)] = [
                ("get", get, Self.page, "not-a-capability", 401, "unauthorized"),
                ("get", get, nil, nil, 403, "SecurityError"),
                ("get", get, "null", nil, 403, "SecurityError"),
                ("get", get, "https://evil.example", nil, 400, "SecurityError"),
                ("get", get, Self.page, other.capability, 403, "forbidden"),
                ("create", "{not json", Self.page, nil, 400, "SyntaxError"),
                ("create", #"{"requestId":"r1"}"#, Self.page, nil, 400, "SyntaxError"),
                ("get", Self.ceremony("{}"), Self.page, nil, 400, "SyntaxError"),
                (
                    "get",
                    Self.ceremony(requestOptions(rpID: "localhost", challenge: [1]), extra: #","mediation":"eager""#),
                    Self.page, nil, 400, "TypeError"
                ),
                (
                    "get", Self.ceremony(requestOptions(rpID: "localhost", challenge: [1]), requestID: ""), Self.page,
                    nil,
                    400, "invalid argument"
                ),
                ("abort", "{}", Self.page, nil, 400, "invalid argument"),
                (
                    "signal", #"{"kind":"unknownCredential","options":{"rpId":"localhost"}}"#, Self.page, nil, 400,
                    "TypeError"
                ),
                (
                    "signal", #"{"kind":"unknownCredential","options":{"rpId":"localhost","credentialId":"***"}}"#,
                    Self.page, nil, 400, "TypeError"
                ),
                (
                    "signal", #"{"kind":"forget","options":{"rpId":"localhost"}}"#, Self.page, nil, 400,
                    "invalid argument"
                ),
            ]
            for (command, body, origin, capability, status, error) in cases {
                let answer = try await bridge.call(command, body, origin: origin, capability: capability)
                #expect(answer.status == status, "\(command) \(body): \(answer.text)")
                #expect(answer.error == error, "\(command) \(body)")
                // The page reads its refusal, except from an origin the bridge is not for.
                let readable = origin != nil && status != 403
                let allowed = answer.header("Access-Control-Allow-Origin")
                #expect(readable ? allowed == origin : allowed == nil, "\(command) \(body)")
            }
            // The capability opens nothing of the control API.
            let withCapability = ControlClient(baseURL: client.baseURL, token: bridge.capability)
            #expect(try await withCapability.send(.get, bridge.path + "/credentials").status == 401)
            #expect(try await withCapability.send(.post, "/session").status == 401)
            #expect(try await bridge.credentials() == before)

            // A removed authenticator's capability opens nothing.
            #expect(try await client.send(.delete, bridge.path).status == 200)
            #expect(try await bridge.call("get", get).status == 401)
        }
    }

    @Test func aConditionalGetWaitsForThePickOrTheAbort() async throws {
        try await withControlServer { client in
            let bridge = try await Bridge(client)
            var ids: [String] = []
            for user in ["ada", "bob"] {
                let created = try await bridge.call(
                    "create", Self.ceremony(creationOptions(rpID: "localhost", user: user)))
                ids.append(try Self.registration(created).id)
            }
            let options = requestOptions(rpID: "localhost", challenge: SecureRandom.bytes(16))
            let conditional = #","mediation":"conditional""#
            // An origin that may not use the RP ID is refused at once, not left waiting.
            let phishing = try await bridge.call(
                "get", Self.ceremony(options, extra: conditional), origin: "http://127.0.0.1:5000")
            #expect(phishing.error == "SecurityError")

            let waiting = Task { try await bridge.call("get", Self.ceremony(options, extra: conditional)) }
            let pick = try await client.send(.post, bridge.path + "/conditional", #"{"credentialId":"\#(ids[0])"}"#)
            #expect(pick.status == 200, "\(pick.text)")
            #expect(pick.value?["requestId"]?.stringValue == "r1")
            #expect(pick.value?["origin"]?.stringValue == Self.page)
            #expect(pick.value?["rpId"]?.stringValue == "localhost")
            let answered = try await waiting.value
            #expect(answered.status == 200, "\(answered.text)")
            #expect(try Self.assertion(answered).id == ids[0])

            // The abort may reach the server before the request it aborts: send it until the page has its answer.
            let outcome = Mutex<ControlClient.Answer?>(nil)
            Task {
                let answer = try await bridge.call("get", Self.ceremony(options, requestID: "r2", extra: conditional))
                outcome.withLock { $0 = answer }
            }
            while outcome.withLock({ $0 }) == nil {
                #expect(try await bridge.call("abort", #"{"requestId":"r2"}"#).status == 200)
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(outcome.withLock { $0?.error } == "AbortError")
            // An abort that overtakes its request: the request, when it comes, is refused.
            #expect(try await bridge.call("abort", #"{"requestId":"r3"}"#).status == 200)
            let overtaken = try await bridge.call("get", Self.ceremony(options, requestID: "r3", extra: conditional))
            #expect(overtaken.error == "AbortError")
            let nothing = try await client.send(.post, bridge.path + "/conditional", #"{"timeout":50}"#)
            #expect(nothing.status == 404)
            #expect(nothing.error == "no such alert")
            #expect(try await client.send(.post, bridge.path + "/conditional", #"{"timeout":-1}"#).status == 400)
        }
    }

    @Test func everyFailureTheCLISimulatesReachesThePage() async throws {
        try await withControlServer { client in
            let party = RelyingParty(id: "localhost", origins: [Self.page])
            for (simulation, refusal) in [("cancel", "NotAllowedError"), ("timeout", "NotAllowedError")] {
                let bridge = try await Bridge(client, simulate: simulation)
                let created = try await bridge.call("create", Self.ceremony(creationOptions(rpID: "localhost")))
                #expect(created.error == refusal, "\(simulation)")
            }
            // These two "succeed": the relying party must refuse what the authenticator signed.
            for simulation in ["no-presence", "bogus-signature"] {
                let bridge = try await Bridge(client, simulate: simulation)
                let (creation, challenge) = Self.options(creationOptions(rpID: "localhost"))
                let created = try await bridge.call("create", Self.ceremony(creation))
                #expect(created.status == 200, "\(created.text)")
                let registration = try Self.registration(created)
                if simulation == "no-presence" {
                    #expect(throws: WebAuthnError.self) {
                        try party.verifyRegistration(registration, challenge: challenge)
                    }
                    continue
                }
                let record = try party.verifyRegistration(registration, challenge: challenge).record()
                let requestChallenge = SecureRandom.bytes(16)
                let got = try await bridge.call(
                    "get", Self.ceremony(requestOptions(rpID: "localhost", challenge: requestChallenge)))
                #expect(throws: WebAuthnError.self) {
                    try party.verifyAuthentication(
                        try Self.assertion(got), challenge: requestChallenge, credential: record)
                }
            }
            let session = try await client.newSession()
            let unknown = try await client.send(
                .post, "/session/\(session)/webauthn/authenticator",
                #"{"softpasskey:simulate":"explode","protocol":"ctap2","transport":"usb"}"#)
            #expect(unknown.error == "invalid argument")
        }
    }

    @Test func aConditionalCreateIsMadeWithoutUserPresence() async throws {
        try await withControlServer { client in
            let bridge = try await Bridge(client)
            let (creation, challenge) = Self.options(
                creationOptions(rpID: "localhost", userVerification: "preferred"))
            let created = try await bridge.call(
                "create", Self.ceremony(creation, extra: #","mediation":"conditional""#))
            #expect(created.status == 200, "\(created.text)")
            let response = try Self.registration(created)
            #expect(throws: WebAuthnError.self) {
                try RelyingParty(id: "localhost", origins: [Self.page]).verifyRegistration(
                    response, challenge: challenge)
            }
            _ = try RelyingParty(ids: ["localhost"], origins: [Self.page], requireUserPresence: false)
                .verifyRegistration(response, challenge: challenge)
            let required = try await bridge.call(
                "create",
                Self.ceremony(
                    creationOptions(rpID: "localhost", user: "bob", userVerification: "required"),
                    extra: #","mediation":"conditional""#))
            #expect(required.error == "NotAllowedError")
        }
    }

    @Test func signalsRemoveAndRenameTheUsersPasskeysAndEveryChangeIsAnEvent() async throws {
        let service = ControlService()
        try await withControlServer(service: service) { client in
            let bridge = try await Bridge(client, profile: "security-key")
            // Bob's passkey, and two of Ada's: one discoverable, one not (a second discoverable one
            // for the same user would replace the first, CTAP 2.1 §6.1.2 step 15).
            var ids: [String] = []
            for (user, residentKey) in [("bob", "required"), ("ada", "required"), ("ada", "discouraged")] {
                let created = try await bridge.call(
                    "create", Self.ceremony(creationOptions(rpID: "localhost", user: user, residentKey: residentKey)))
                ids.append(try Self.registration(created).id)
            }
            let userID = Base64URL.encode(Array("ada".utf8))
            let signals = [
                #"{"kind":"unknownCredential","options":{"rpId":"localhost","credentialId":"\#(ids[0])"}}"#,
                #"{"kind":"allAcceptedCredentials","options":{"rpId":"localhost","userId":"\#(userID)","allAcceptedCredentialIds":["\#(ids[2])"]}}"#,
                #"{"kind":"currentUserDetails","options":{"rpId":"localhost","userId":"\#(userID)","name":"ada@example.com","displayName":"Ada L."}}"#,
            ]
            let refused = try await bridge.call("signal", signals[0], origin: "https://evil.example")
            #expect(refused.error == "SecurityError")
            for signal in signals {
                let answer = try await bridge.call("signal", signal)
                #expect(answer.status == 200, "\(answer.text)")
            }
            let left = try #require(try JSONValue(json: try await bridge.credentials())["value"]?.arrayValue)
            #expect(left.count == 1)
            #expect(left.first?["credentialId"]?.stringValue == ids[2])
            #expect(left.first?["userName"]?.stringValue == "ada@example.com")
            #expect(left.first?["userDisplayName"]?.stringValue == "Ada L.")

            let tools = ControlMCPServer(service: service, session: bridge.session, authenticator: bridge.authenticator)
            let read = try JSONValue(json: Array(Self.text(await tools.call("events", arguments: [:])).utf8))
            let events = try #require(read["events"]?.arrayValue)
            #expect(
                events.compactMap { $0["type"]?.stringValue } == [
                    "credentialAdded", "credentialAdded", "credentialAdded", "credentialDeleted", "credentialDeleted",
                    "credentialUpdated",
                ])
            #expect(events.compactMap { $0["credentialId"]?.stringValue }.suffix(3) == [ids[0], ids[1], ids[2]])
            #expect(
                events.allSatisfy { $0["origin"]?.stringValue == Self.page && $0["rpId"]?.stringValue == "localhost" })
            let later = try JSONValue(json: Array(Self.text(await tools.call("events", arguments: ["after": 5])).utf8))
            #expect(later["events"]?.arrayValue?.count == 1)
            #expect(later["last"] == .number(6))
        }
    }

    @Test func theEventStreamIsServerSentEvents() async throws {
        try await withControlServer { client in
            let bridge = try await Bridge(client)
            let port = try #require(URL(string: client.baseURL)?.port)
            let request =
                "GET /session/\(bridge.session)/webauthn/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer \(client.token ?? "")\r\n\r\n"
            // Three events, then the reader hangs up, as a browser's EventSource closed by its page.
            let stream = Task { try await Self.exchange(port: port, request) { $0.contains("id: 3\n") } }
            let created = try await bridge.call("create", Self.ceremony(creationOptions(rpID: "localhost")))
            let id = try Self.registration(created).id
            _ = try await bridge.call("get", Self.ceremony(requestOptions(rpID: "localhost", challenge: [1, 2, 3, 4])))
            #expect(try await client.send(.delete, bridge.path + "/credentials/\(id)").status == 200)
            let text = try await stream.value
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n") && text.contains("Content-Type: text/event-stream\r\n"))
            let events = text.components(separatedBy: "\n\n").compactMap { block in
                block.range(of: "id: ").map { String(block[$0.lowerBound...]) }
            }
            // Fewer events (the read timed out) fail here rather than trap on an index below.
            try #require(events.count == 3 && events.allSatisfy { $0.split(separator: "\n").count >= 2 })
            #expect(
                events.map { $0.split(separator: "\n")[1] } == [
                    "event: credentialAdded", "event: credentialAsserted", "event: credentialDeleted",
                ])
            #expect(events.map { $0.split(separator: "\n")[0] } == ["id: 1", "id: 2", "id: 3"])
            #expect(events[1].contains(#""origin":"\#(Self.page)""#) && !events[2].contains(#""origin""#))

            let unknown = try await client.send(.get, "/session/nosuch/webauthn/events")
            #expect(unknown.status == 404)
        }
    }

    /// Sends a raw HTTP/1.1 request and reads the answer until `done` says so or the server
    /// closes: for what libcurl cannot do here (an `OPTIONS` preflight, and an event stream,
    /// which it hands over only once it ends). On a thread of its own, since reading blocks, and
    /// for 60 seconds at most (a loaded machine is slow; `done` ends it at once otherwise).
    static func exchange(port: Int, _ request: String, until done: @escaping @Sendable (String) -> Bool)
        async throws -> String
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                defer { close(socket) }
                var timeout = timeval(tv_sec: 60, tv_usec: 0)
                setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(port).bigEndian)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                guard connected == 0 else {
                    continuation.resume(throwing: POSIXError(.ECONNREFUSED))
                    return
                }
                _ = request.withCString { send(socket, $0, strlen($0), 0) }
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !done(String(decoding: received, as: UTF8.self)) {
                    let count = recv(socket, &buffer, buffer.count, 0)
                    guard count > 0 else { break }
                    received += buffer[..<count]
                }
                continuation.resume(returning: String(decoding: received, as: UTF8.self))
            }.start()
        }
    }

    static func text(_ result: CallTool.Result) -> String {
        result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
    }
}
