import Dispatch
import Foundation
import Glibc
import PasskeyCTAP
import Synchronization

/// `passkey device --presence ask` and `--uv ask`: each test of user presence (CTAP 2.1 §6.1.2
/// step 13, §6.2.2 step 9) and each built-in user verification (§6.5.5.7.3) becomes a question on
/// the terminal, answered on standard input, as a touch or a fingerprint on a real key.
///
/// Standard input is read by one thread of its own for the life of the device, line by line. A line
/// goes to the question waiting, if any; a line typed while none waits is dropped, so an answer
/// typed ahead cannot approve a request not yet asked. A question the device stops waiting for
/// (the client cancelled, the 30 s ran out) is answered no, and says so; once standard input ends,
/// every question is answered no at once.
final class TerminalPresence: Sendable {
    private struct State {
        /// The question waiting for a line.
        var waiting: (id: Int, answer: CheckedContinuation<Bool, Never>)?
        /// The last question given up, in case it was given up before it started to wait.
        var lastAbandoned = 0
        var lastID = 0
        var inputEnded = false
    }

    private let output: Int32
    private let state = Mutex(State())

    /// Starts reading `input`.
    ///
    /// - Parameters:
    ///   - input: where answers come from, standard input by default.
    ///   - output: where questions go, standard error by default.
    init(input: Int32 = STDIN_FILENO, output: Int32 = STDERR_FILENO) {
        self.output = output
        DispatchQueue(label: "passkey-device-presence").async { [self] in
            var line: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 256)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                for byte in chunk.prefix(count) {
                    if byte == UInt8(ascii: "\n") {
                        answer(String(decoding: line, as: UTF8.self))
                        line = []
                    } else {
                        line.append(byte)
                    }
                }
            }
            endInput()
        }
    }

    /// The presence policy for ``CTAPDevice``: ask each time.
    var policy: UserPresence {
        .ask { request in await self.ask(request) }
    }

    /// The built-in user verification for ``CTAPDevice``: ask each time whether it is the user.
    var verification: UserVerification {
        .ask { request in await self.ask(request, verifying: true) }
    }

    /// Asks once and waits for a line: `y` or `yes` (any case) is presence (or, `verifying`, the
    /// user verified), anything else a denial.
    ///
    /// - Parameters:
    ///   - request: what the device waits for.
    ///   - verifying: whether the question is user verification rather than presence.
    /// - Returns: whether the user answered yes.
    func ask(_ request: UserPresenceRequest, verifying: Bool = false) async -> Bool {
        let id = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        let subject = request.rpID.map { "\(request.command) for \($0)" } ?? "\(request.command)"
        let question = "passkey device: \(verifying ? "is it you, for" : "allow") \(subject)? [y/N] "
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (answer: CheckedContinuation<Bool, Never>) in
                let refusal = state.withLock { state -> String? in
                    if state.lastAbandoned == id { return "(no longer waiting: answered no)\n" }
                    if state.inputEnded { return "(standard input is closed: answered no)\n" }
                    state.waiting?.answer.resume(returning: false)
                    state.waiting = (id, answer)
                    return nil
                }
                // Asked once it waits: a line typed after the question reaches it.
                say(question + (refusal ?? ""))
                if refusal != nil { answer.resume(returning: false) }
            }
        } onCancel: {
            let abandoned = state.withLock { state in
                state.lastAbandoned = id
                defer { if state.waiting?.id == id { state.waiting = nil } }
                return state.waiting?.id == id ? state.waiting?.answer : nil
            }
            if let abandoned {
                say("(no longer waiting: answered no)\n")
                abandoned.resume(returning: false)
            }
        }
    }

    private func answer(_ line: String) {
        let waiting = state.withLock { state in
            defer { state.waiting = nil }
            return state.waiting?.answer
        }
        let word = line.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        waiting?.resume(returning: word == "y" || word == "yes")
    }

    private func endInput() {
        let waiting = state.withLock { state in
            state.inputEnded = true
            defer { state.waiting = nil }
            return state.waiting?.answer
        }
        waiting?.resume(returning: false)
    }

    private func say(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
    }
}
