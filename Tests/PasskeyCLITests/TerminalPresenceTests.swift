import Dispatch
import Glibc
import PasskeyCTAP
import Synchronization
import Testing

@testable import passkey

/// `passkey device --presence ask`: questions on one pipe, answers on another, as on a terminal.
@Suite struct TerminalPresenceTests {
    /// Both pipes; the questions are waited for a minute at most (then the test fails). The answers'
    /// reading end is the presence reader's, which ends when the writing end closes.
    private final class Terminal: Sendable {
        let answers: (read: Int32, write: Int32)
        let questions: (read: Int32, write: Int32)
        let presence: TerminalPresence
        private let queue = DispatchQueue(label: "terminal-presence-test")

        init() throws {
            var answers: [Int32] = [-1, -1]
            var questions: [Int32] = [-1, -1]
            try #require(pipe(&answers) == 0 && pipe(&questions) == 0)
            self.answers = (answers[0], answers[1])
            self.questions = (questions[0], questions[1])
            presence = TerminalPresence(input: answers[0], output: questions[1])
        }

        private let answersOpen = Mutex(true)

        deinit {
            endInput()
            close(questions.read)
            close(questions.write)
        }

        /// Closes the answers' writing end, once.
        func endInput() {
            answersOpen.withLock { open in
                if open { close(answers.write) }
                open = false
            }
        }

        func type(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { write(answers.write, $0.baseAddress, $0.count) }
        }

        /// What was printed, up to and including `end`.
        func printed(through end: String) async -> String {
            await withCheckedContinuation { done in
                queue.async {
                    var text: [UInt8] = []
                    var byte: UInt8 = 0
                    var ready = pollfd(fd: self.questions.read, events: Int16(POLLIN), revents: 0)
                    while !String(decoding: text, as: UTF8.self).hasSuffix(end), poll(&ready, 1, 60_000) == 1,
                        read(self.questions.read, &byte, 1) == 1
                    {
                        text.append(byte)
                    }
                    done.resume(returning: String(decoding: text, as: UTF8.self))
                }
            }
        }

        /// Asks, waits for the question, types `answer` and returns what came of it.
        func ask(_ request: UserPresenceRequest, verifying: Bool = false, answering answer: String) async -> (
            question: String, present: Bool
        ) {
            let asking = Task { await presence.ask(request, verifying: verifying) }
            let question = await printed(through: "[y/N] ")
            type(answer)
            return (question, await asking.value)
        }
    }

    @Test func yesIsPresenceAndAnythingElseIsNot() async throws {
        let terminal = try Terminal()
        let yes = await terminal.ask(
            UserPresenceRequest(command: .makeCredential, rpID: "example.com"), answering: " Yes\r\n")
        #expect(yes.question == "passkey device: allow makeCredential for example.com? [y/N] ")
        #expect(yes.present)
        #expect(await terminal.ask(UserPresenceRequest(command: .reset), answering: "y\n").present)
        #expect(!(await terminal.ask(UserPresenceRequest(command: .selection), answering: "\n").present))
        #expect(!(await terminal.ask(UserPresenceRequest(command: .selection), answering: "nope\n").present))
    }

    @Test func userVerificationAsksWhetherItIsTheUser() async throws {
        let terminal = try Terminal()
        let request = UserPresenceRequest(command: .getAssertion, rpID: "example.com")
        let yes = await terminal.ask(request, verifying: true, answering: "y\n")
        #expect(yes.question == "passkey device: is it you, for getAssertion for example.com? [y/N] ")
        #expect(yes.present)
        #expect(!(await terminal.ask(request, verifying: true, answering: "n\n").present))
        // The policy the device is given asks the same question.
        let asking = Task { await terminal.presence.verification.check(request) }
        #expect(
            await terminal.printed(through: "[y/N] ").hasSuffix("is it you, for getAssertion for example.com? [y/N] "))
        terminal.type("yes\n")
        #expect(await asking.value)
    }

    @Test func anAnswerTypedBeforeTheQuestionApprovesNothing() async throws {
        let terminal = try Terminal()
        // The first question takes the first line; "y" typed while none waits is dropped.
        #expect(!(await terminal.ask(UserPresenceRequest(command: .selection), answering: "n\ny\n").present))
        #expect(!(await terminal.ask(UserPresenceRequest(command: .selection), answering: "no\n").present))
    }

    @Test func aQuestionGivenUpIsAnsweredNo() async throws {
        let terminal = try Terminal()
        let asking = Task {
            await terminal.presence.ask(UserPresenceRequest(command: .getAssertion, rpID: "a.example"))
        }
        _ = await terminal.printed(through: "[y/N] ")
        asking.cancel()
        #expect(!(await asking.value))
        #expect(await terminal.printed(through: "\n") == "(no longer waiting: answered no)\n")
        // The next question is asked afresh.
        #expect(await terminal.ask(UserPresenceRequest(command: .selection), answering: "y\n").present)
    }

    @Test func theEndOfInputAnswersNo() async throws {
        let terminal = try Terminal()
        let asking = Task { await terminal.presence.ask(UserPresenceRequest(command: .selection)) }
        _ = await terminal.printed(through: "[y/N] ")
        terminal.endInput()
        #expect(!(await asking.value))
        #expect(!(await terminal.presence.ask(UserPresenceRequest(command: .selection))))
    }
}
