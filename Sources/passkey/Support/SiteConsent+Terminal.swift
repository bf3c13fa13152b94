import ArgumentParser
import BlockingIO
import Foundation
import PasskeyBrowser
import PasskeyControl
import WebAuthn

/// `passkey browser --consent`: what happens at the first ceremony of a site the store has no
/// decision for.
enum ConsentMode: String, CaseIterable, ExpressibleByArgument {
    /// A question at the terminal, answered y or n; the answer is remembered for the site.
    case ask
    /// Every site may use the passkeys, nothing is asked or remembered (before issue 44's consent).
    case always
    /// A site without a remembered allow is refused.
    case never
}

extension SiteConsent {
    /// The consent of `passkey browser` in `mode`, over the decisions remembered in the store's
    /// directory: a remembered answer stands; else `ask` asks `question` and remembers a y or n,
    /// `never` refuses; `always` asks nothing (`nil`). A decisions file that cannot be read
    /// refuses the ceremony, saying why on standard error.
    static func terminal(mode: ConsentMode, decisions: SiteDecisions, question: TerminalQuestion) -> SiteConsent? {
        if mode == .always {
            return nil
        }
        return SiteConsent { request throws(ControlError) in
            let remembered: Bool?
            do throws(BrowserError) {
                remembered = try await decisions.decision(for: request.origin)
            } catch {
                printError("browser: \(error.reason)")
                throw ControlError("NotAllowedError", status: 400, "the site decisions cannot be read")
            }
            if let remembered {
                return remembered
            }
            guard mode == .ask, let answer = await question.ask(Self.prompt(for: request, store: decisions.directory))
            else {
                return false
            }
            do throws(BrowserError) {
                try await decisions.record(answer, for: request.origin)
            } catch {
                printError("browser: the answer for \(request.origin) is not remembered: \(error.reason)")
            }
            return answer
        }
    }

    /// The question about `request`'s site, on one line.
    static func prompt(for request: SiteConsent.Request, store: String) -> String {
        let ceremony = request.operation == .create ? "create a passkey" : "use a passkey"
        let rpID = request.rpID.map { " for \($0)" } ?? ""
        let frame = request.topOrigin.map { " (in a frame of \($0))" } ?? ""
        return "passkey browser: \(request.origin)\(frame) asks to \(ceremony)\(rpID). "
            + "Allow this site to use the passkeys of \(store)? [y/n] "
    }
}

/// A yes-or-no question on standard error, answered by a line of standard input; one question at
/// a time (a serial queue), whose blocking read runs off the Swift concurrency pool
/// (``BlockingExecutor``).
struct TerminalQuestion: Sendable {
    private let executor = BlockingExecutor(label: "passkey.browser.consent")
    /// Reads a line, blocking; `nil` at the end of the input. Standard input by default.
    let readAnswer: @Sendable () -> String?
    /// Writes the question.
    let writePrompt: @Sendable (String) -> Void

    /// A question on standard error, answered on standard input; or, for a test, on other ends.
    init(
        readAnswer: @escaping @Sendable () -> String? = { readLine(strippingNewline: true) },
        writePrompt: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.readAnswer = readAnswer
        self.writePrompt = writePrompt
    }

    /// Asks until the answer is y, yes, n or no (any case).
    ///
    /// - Parameter prompt: the question.
    /// - Returns: the answer, or `nil` when standard input ended first.
    func ask(_ prompt: String) async -> Bool? {
        await executor.run { [readAnswer, writePrompt] () throws(Never) -> Bool? in
            while true {
                writePrompt(prompt)
                guard let line = readAnswer() else {
                    return nil
                }
                switch line.trimmingCharacters(in: .whitespaces).lowercased() {
                case "y", "yes": return true
                case "n", "no": return false
                default: continue
                }
            }
        }
    }
}
