import Glibc
import Logging
import Subprocess
import SystemPackage

/// The browser as a child process: started in a process group of its own, its standard error read
/// line by line, its end awaited by swift-subprocess off the concurrency pool, and closed on
/// cancellation (SIGTERM to the browser, SIGKILL to its group 5 seconds later).
enum BrowserProcess {
    /// The last lines the browser wrote to standard error, for the reason of a failure.
    struct Tail: Sendable {
        private(set) var lines: [String] = []

        mutating func append(_ line: String) {
            guard !line.allSatisfy(\.isWhitespace) else { return }
            lines.append(line)
            if lines.count > 3 {
                lines.removeFirst()
            }
        }

        var text: String { lines.isEmpty ? "no output" : lines.joined(separator: " / ") }
    }

    /// Runs the browser until it ends.
    ///
    /// - Parameters:
    ///   - executable: the browser's executable.
    ///   - arguments: its arguments.
    ///   - logger: where its standard error goes, at `debug`.
    ///   - body: what to do while it runs (Firefox: drive it over BiDi), given the lines of its
    ///     standard error as they come (the newest 64 kept when unread), which end when it has
    ///     closed standard error; returns at once by default. Throwing from it closes the browser.
    /// - Throws: ``BrowserError`` `launch-failed` when it cannot start, or when it ends with a
    ///   failure status or on a signal other than SIGTERM, SIGINT or SIGHUP while the calling task
    ///   was not cancelled; what `body` throws.
    static func run(
        _ executable: String, _ arguments: [String], logger: Logger,
        body: @escaping @Sendable (AsyncStream<String>) async throws(BrowserError) -> Void = { _ in }
    ) async throws(BrowserError) {
        let name = executable.split(separator: "/").last.map(String.init) ?? executable
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [
            .gracefulShutDown(allowedDurationToNextStep: .seconds(5)),
            .send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .seconds(1)),
        ]
        let status: TerminationStatus
        let tail: Tail
        do {
            let outcome = try await Subprocess.run(
                .path(FilePath(executable)), arguments: Arguments(arguments), platformOptions: options,
                input: .none, output: .discarded, error: .sequence
            ) { execution in
                let (lines, relay) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(64))
                return try await withThrowingTaskGroup(of: Tail?.self) { group in
                    group.addTask {
                        defer { relay.finish() }
                        var tail = Tail()
                        for try await line in execution.standardError.strings(bufferingPolicy: .unbounded) {
                            logger.debug("\(name): \(line)")
                            relay.yield(line)
                            tail.append(line)
                        }
                        return tail
                    }
                    group.addTask {
                        try await body(lines)
                        return nil
                    }
                    var tail = Tail()
                    while let next = try await group.next() {
                        if let next { tail = next }
                    }
                    return tail
                }
            }
            status = outcome.terminationStatus
            tail = outcome.closureResult
        } catch {
            // Cancelled: the browser was closed on purpose, whatever its driver said meanwhile.
            if Task.isCancelled { return }
            if let error = error as? BrowserError { throw error }
            throw BrowserError(.launchFailed, "\(name) could not run: \(error)")
        }
        if Task.isCancelled { return }
        switch status {
        case .exited(0):
            return
        case .exited(let code):
            throw BrowserError(.launchFailed, "\(name) ended with status \(code): \(tail.text)")
        case .signaled(let signal) where [SIGTERM, SIGINT, SIGHUP].contains(signal):
            // Asked to quit from outside (a session's end, `kill`): closed, as by the person.
            return
        case .signaled(let signal):
            throw BrowserError(.launchFailed, "\(name) ended on signal \(signal): \(tail.text)")
        }
    }
}
