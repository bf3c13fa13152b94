import Auth0Passkeys
import PasskeyAuthenticator
import PasskeyControl
import Synchronization
import TestSupport
import Testing
import WebAuthn

/// The service's consent hook (``SiteConsent``) through the page bridge: asked once per origin
/// before its first ceremony, after the RP ID check; a refusal is the `NotAllowedError` of a
/// cancelled browser dialog.
@Suite struct SiteConsentTests {
    static let allowed = "http://localhost:5000"
    static let refused = "http://localhost:5001"

    /// The questions the hook was asked, by origin, and what it answered.
    final class Questions: Sendable {
        let asked = Mutex<[String]>([])
        let failing = Mutex(false)

        var consent: SiteConsent {
            SiteConsent { request throws(ControlError) in
                self.asked.withLock { $0.append(request.origin.description) }
                // A slow person: ceremonies arriving meanwhile wait for this answer.
                try? await Task.sleep(for: .milliseconds(50))
                if self.failing.withLock({ $0 }) {
                    throw ControlError("NotAllowedError", status: 400, "no answer")
                }
                return request.origin.description == SiteConsentTests.allowed
            }
        }
    }

    @Test func eachOriginIsAskedOnceAndARefusalIsNotAllowedError() async throws {
        let questions = Questions()
        try await withControlServer(service: ControlService(consent: questions.consent)) { client in
            let bridge = try await PageBridgeTests.Bridge(client)
            // Two ceremonies at once from an undecided origin: one question.
            async let first = bridge.call(
                "create", PageBridgeTests.ceremony(creationOptions(rpID: "localhost", user: "ada")),
                origin: Self.allowed)
            async let second = bridge.call(
                "create", PageBridgeTests.ceremony(creationOptions(rpID: "localhost", user: "bob")),
                origin: Self.allowed)
            let answers = try await [first, second]
            #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map(\.text))")
            let got = try await bridge.call(
                "get", PageBridgeTests.ceremony(requestOptions(rpID: "localhost", challenge: [1, 2])),
                origin: Self.allowed)
            #expect(got.status == 200, "\(got.text)")

            let before = try await bridge.credentials()
            for _ in 0..<2 {
                let refusal = try await bridge.call(
                    "create", PageBridgeTests.ceremony(creationOptions(rpID: "localhost", user: "eve")),
                    origin: Self.refused)
                #expect(refusal.status == 400 && refusal.error == "NotAllowedError", "\(refusal.text)")
                #expect(refusal.value?["message"]?.stringValue?.hasPrefix("The operation either timed out") == true)
            }
            // A conditional get waits unasked; the pick asks (here: the remembered refusal).
            let conditional = #","mediation":"conditional""#
            let waiting = Task {
                try await bridge.call(
                    "get",
                    PageBridgeTests.ceremony(requestOptions(rpID: "localhost", challenge: [1]), extra: conditional),
                    origin: Self.refused)
            }
            let pick = try await client.send(.post, bridge.path + "/conditional", "{}")
            #expect(pick.error == "NotAllowedError", "\(pick.text)")
            #expect(try await waiting.value.error == "NotAllowedError")
            #expect(try await bridge.credentials() == before)
            #expect(questions.asked.withLock { $0 } == [Self.allowed, Self.refused])
        }
    }

    @Test func anOriginThatMayNotUseTheRPIDIsNeverAsked() async throws {
        let questions = Questions()
        try await withControlServer(service: ControlService(consent: questions.consent)) { client in
            let bridge = try await PageBridgeTests.Bridge(client)
            let phishing = try await bridge.call(
                "create", PageBridgeTests.ceremony(creationOptions(rpID: "example.com")), origin: Self.allowed)
            #expect(phishing.error == "SecurityError", "\(phishing.text)")
            #expect(questions.asked.withLock { $0 }.isEmpty)
        }
    }

    @Test func aQuestionLeftUnansweredRefusesAndIsAskedAgain() async throws {
        let questions = Questions()
        questions.failing.withLock { $0 = true }
        try await withControlServer(service: ControlService(consent: questions.consent)) { client in
            let bridge = try await PageBridgeTests.Bridge(client)
            let create = PageBridgeTests.ceremony(creationOptions(rpID: "localhost"))
            let unanswered = try await bridge.call("create", create, origin: Self.allowed)
            #expect(unanswered.error == "NotAllowedError", "\(unanswered.text)")
            questions.failing.withLock { $0 = false }
            let answered = try await bridge.call("create", create, origin: Self.allowed)
            #expect(answered.status == 200, "\(answered.text)")
            #expect(questions.asked.withLock { $0 } == [Self.allowed, Self.allowed])
        }
    }
}
