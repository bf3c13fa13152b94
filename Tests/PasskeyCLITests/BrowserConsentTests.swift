import ArgumentParser
import Foundation
import PasskeyBrowser
import PasskeyControl
import Synchronization
import TestSupport
import Testing
import WebAuthn

@testable import passkey

/// `passkey browser --consent ask|always|never`, `--sites` and `--forget`: the terminal's answers
/// through a control service's ceremonies, remembered in the store's directory for the next run.
@Suite(.temporaryDirectory) struct BrowserConsentTests {
    static let site = try! WebOrigin("http://localhost:5000")
    static let other = try! WebOrigin("http://localhost:5001")

    /// Standard input and error for the question: scripted answers, and the prompts written.
    final class Terminal: Sendable {
        let answers: Mutex<[String]>
        let prompts = Mutex<[String]>([])

        init(_ answers: [String]) {
            self.answers = Mutex(answers)
        }

        var question: TerminalQuestion {
            TerminalQuestion(
                readAnswer: { self.answers.withLock { $0.isEmpty ? nil : $0.removeFirst() } },
                writePrompt: { prompt in self.prompts.withLock { $0.append(prompt) } })
        }
    }

    /// One run of `passkey browser`: a service with the consent of `mode` over the store's
    /// decisions, and the outcome of a create from each origin (`nil` when it succeeded).
    static func run(_ mode: ConsentMode, _ terminal: Terminal, origins: [WebOrigin]) async throws -> [String?] {
        let decisions = SiteDecisions(directory: try TemporaryDirectory.current.path)
        let service = ControlService(
            consent: .terminal(mode: mode, decisions: decisions, question: terminal.question))
        let session = await service.newSession()
        let authenticator = try await service.addAuthenticator(
            session: session,
            VirtualAuthenticatorConfiguration(parameters: ["softpasskey:profile": .string("platform")]))
        var outcomes: [String?] = []
        for (index, origin) in origins.enumerated() {
            let options = try WebAuthnJSON.decode(
                PublicKeyCredentialCreationOptionsJSON.self,
                from: Array(
                    (#"{"rp":{"id":"localhost","name":"Example"},"user":{"id":"dQ","name":"u\#(index)","#
                        + #""displayName":"U"},"challenge":"Y2hhbGxlbmdl","pubKeyCredParams":[{"type":"public-key","#
                        + #""alg":-7}]}"#).utf8))
            do {
                _ = try await service.create(
                    session: session, authenticator: authenticator, options: options, origin: origin)
                outcomes.append(nil)
            } catch {
                outcomes.append(error.code)
            }
        }
        return outcomes
    }

    @Test func askRemembersYesAndNoForTheNextRun() async throws {
        let terminal = Terminal(["maybe", "y", "n"])
        let first = try await Self.run(.ask, terminal, origins: [Self.site, Self.other, Self.site, Self.other])
        #expect(first == [nil, "NotAllowedError", nil, "NotAllowedError"])
        let prompts = terminal.prompts.withLock { $0 }
        // "maybe" asks again; each origin is asked about once.
        #expect(prompts.count == 3)
        #expect(
            prompts.first
                == "passkey browser: http://localhost:5000 asks to create a passkey for localhost. "
                + "Allow this site to use the passkeys of \(try TemporaryDirectory.current.path)? [y/n] ")
        #expect(prompts.last?.hasPrefix("passkey browser: http://localhost:5001 asks") == true)

        // The next run asks nothing: the answers were remembered.
        let silent = Terminal([])
        #expect(try await Self.run(.ask, silent, origins: [Self.other, Self.site]) == ["NotAllowedError", nil])
        #expect(silent.prompts.withLock { $0 }.isEmpty)
        let remembered = try await SiteDecisions(directory: try TemporaryDirectory.current.path).decisions()
        #expect(remembered.map(\.origin) == [Self.site.description, Self.other.description])
        #expect(remembered.map(\.allowed) == [true, false])
    }

    @Test func neverRefusesUndecidedSitesAndAlwaysAsksNothing() async throws {
        let directory = try TemporaryDirectory.current.path
        try await SiteDecisions(directory: directory).record(true, for: Self.site)
        let terminal = Terminal(["y"])
        #expect(try await Self.run(.never, terminal, origins: [Self.site, Self.other]) == [nil, "NotAllowedError"])
        #expect(try await Self.run(.always, terminal, origins: [Self.other]) == [nil])
        #expect(terminal.prompts.withLock { $0 }.isEmpty)
        // Neither remembered anything new.
        #expect(try await SiteDecisions(directory: directory).decisions().map(\.origin) == [Self.site.description])
    }

    @Test func noAnswerRefusesAndIsNotRemembered() async throws {
        let terminal = Terminal([])
        #expect(try await Self.run(.ask, terminal, origins: [Self.site]) == ["NotAllowedError"])
        #expect(terminal.prompts.withLock { $0 }.count == 1)
        #expect(try await SiteDecisions(directory: try TemporaryDirectory.current.path).decisions().isEmpty)
    }

    @Test func sitesListsAndForgetForgets() async throws {
        let store = try TemporaryDirectory.current.path
        let decisions = SiteDecisions(directory: store)
        try await decisions.record(true, for: Self.site, at: Date(timeIntervalSince1970: 1_800_000_000))
        try await decisions.record(false, for: Self.other, at: Date(timeIntervalSince1970: 1_800_000_000))
        let environment = ChildEnvironment.inheriting(["PASSKEY_PASSPHRASE": ""])
        let listed = try await ChildProcess.run(
            CLIProcess.executable, ["browser", "--sites", "--store", store], environment: environment)
        #expect(listed.status == 0, "\(listed)")
        #expect(
            listed.stdout
                == "allowed  http://localhost:5000  2027-01-15T08:00:00Z\n"
                + "refused  http://localhost:5001  2027-01-15T08:00:00Z\n")
        let json = try await ChildProcess.run(
            CLIProcess.executable, ["browser", "--sites", "--json", "--store", store], environment: environment)
        let sites = try #require(try json.json()["sites"]?.arrayValue)
        #expect(sites.map { $0["origin"]?.stringValue } == [Self.site.description, Self.other.description])
        #expect(sites.map { $0["allowed"]?.boolValue } == [true, false])

        let forgot = try await ChildProcess.run(
            CLIProcess.executable, ["browser", "--forget", "http://localhost:5001", "--store", store],
            environment: environment)
        #expect(forgot.status == 0 && forgot.stdout == "forgot http://localhost:5001\n", "\(forgot)")
        let again = try await ChildProcess.run(
            CLIProcess.executable, ["browser", "--forget", "http://localhost:5001", "--store", store],
            environment: environment)
        #expect(again.status == 1 && again.stdout.isEmpty, "\(again)")
        #expect(again.stderr == "browser: no decision is remembered for http://localhost:5001\n", "\(again)")
        #expect(try await decisions.decisions().map(\.origin) == [Self.site.description])

        try "{".write(toFile: store + "/" + SiteDecisions.fileName, atomically: true, encoding: .utf8)
        let damaged = try await ChildProcess.run(
            CLIProcess.executable, ["browser", "--sites", "--store", store], environment: environment)
        #expect(damaged.status == 1 && damaged.stdout.isEmpty, "\(damaged)")
        #expect(damaged.stderr.hasPrefix("browser: \(store)/sites.json is not a list of site decisions"), "\(damaged)")
    }

    @Test(arguments: [
        ["browser"], ["browser", "--sites", "https://example.com/"], ["browser", "--forget", "https://a.example/x"],
        ["browser", "--sites", "--forget", "https://a.example"],
        ["browser", "--consent", "sometimes", "https://a.example"],
    ])
    func refusesWhatIsNotOneThingToDo(_ arguments: [String]) {
        #expect(throws: (any Error).self) { try Passkey.parseAsRoot(arguments) }
    }

    @Test func consentIsAskedByDefault() throws {
        let browser = try #require(try Passkey.parseAsRoot(["browser", "https://example.com/"]) as? Passkey.Browser)
        #expect(browser.consent == .ask)
        let never = try #require(
            try Passkey.parseAsRoot(["browser", "--consent", "never", "https://example.com/"]) as? Passkey.Browser)
        #expect(never.consent == .never)
    }
}
