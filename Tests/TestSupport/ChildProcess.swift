import Foundation
public import Glibc
import Subprocess
import SystemPackage

/// A child process of a test, run through swift-subprocess: its output is read and its exit
/// awaited asynchronously, so no thread of Swift's cooperative pool blocks in `waitpid` or `read`
/// while it runs (issue 11).
///
/// ``run(_:_:environment:input:timeout:timeoutSignal:)`` runs a command to its end.
/// ``start(_:_:environment:input:readyWhen:)`` starts a long-running one (the tenant server, the
/// `store-stress` helper), returns once its standard output says it is ready, and leaves it
/// running for ``send(_:)`` and ``wait()``:
///
/// ```swift
/// let server = try await ChildProcess.start(ChildProcess.built("passkey"), ["tenant", "serve", "--json"])
/// let startLine = server.startOutput
/// server.send(SIGTERM)
/// let result = try await server.wait()
/// ```
public final class ChildProcess: Sendable {
    /// What the child had written to standard output when ``start(_:_:environment:input:readyWhen:)``
    /// returned (at least as much as made it ready).
    public let startOutput: String
    private let signals: AsyncStream<Int32>.Continuation
    private let outcome: Task<ProcessResult, any Error>

    private init(startOutput: String, signals: AsyncStream<Int32>.Continuation, outcome: Task<ProcessResult, any Error>)
    {
        self.startOutput = startOutput
        self.signals = signals
        self.outcome = outcome
    }

    /// A child still running when its last reference goes gets SIGTERM, as a test's
    /// `defer { process.terminate() }` gave it before.
    deinit {
        signals.yield(SIGTERM)
        signals.finish()
    }

    /// The path of an executable built next to the test bundle by `swift build --build-tests`.
    ///
    /// - Parameter name: the executable product's name (`passkey`, `store-stress`).
    /// - Returns: its absolute path.
    public static func built(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Runs a command to its end and returns what it printed and how it ended.
    ///
    /// Standard output and standard error are read concurrently, so neither pipe can fill up and
    /// block the child.
    ///
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments.
    ///   - environment: its environment; this process's by default.
    ///   - input: its standard input, closed after these bytes; empty by default.
    ///   - timeout: how long it may run before it is sent `timeoutSignal`; 2 minutes by default.
    ///   - timeoutSignal: the signal it gets after `timeout`; SIGTERM by default, SIGKILL to kill a
    ///     child at a chosen instant.
    /// - Returns: its output and exit status, or the signal that ended it.
    /// - Throws: `SubprocessError` when the program cannot be started or its output not read.
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: ChildEnvironment = .inheriting([:]),
        input: [UInt8] = [], timeout: Duration = .seconds(120), timeoutSignal: Int32 = SIGTERM
    ) async throws -> ProcessResult {
        let child = try await start(executable, arguments, environment: environment, input: input)
        return try await withThrowingTaskGroup(of: ProcessResult?.self) { group in
            group.addTask { try await child.wait() }
            group.addTask {
                try await Task.sleep(for: timeout)
                child.send(timeoutSignal)
                return nil
            }
            while let next = try await group.next() {
                if let result = next {
                    group.cancelAll()
                    return result
                }
            }
            throw CancellationError()
        }
    }

    /// Starts a command and returns once it is ready, leaving it running.
    ///
    /// Its standard output is read from the start; standard error is collected for ``wait()``.
    ///
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments.
    ///   - environment: its environment; this process's by default.
    ///   - input: its standard input, closed after these bytes; empty by default.
    ///   - isReady: whether the standard output read so far shows the child ready; asked once
    ///     before any output and after each read. At once by default.
    /// - Returns: the running child, once `isReady` holds or its standard output has ended.
    /// - Throws: `SubprocessError` when the program cannot be started or its output not read.
    public static func start(
        _ executable: String, _ arguments: [String] = [], environment: ChildEnvironment = .inheriting([:]),
        input: [UInt8] = [], readyWhen isReady: @escaping @Sendable (String) -> Bool = { _ in true }
    ) async throws -> ChildProcess {
        let (started, announce) = AsyncStream.makeStream(of: String.self)
        let (signals, signalling) = AsyncStream.makeStream(of: Int32.self)
        let outcome = Task {
            defer { announce.finish() }
            return try await launch(
                executable, arguments, environment: environment, input: input, signals: signals, isReady: isReady,
                announce: announce)
        }
        return try await withTaskCancellationHandler {
            var announcements = started.makeAsyncIterator()
            let output = await announcements.next()
            if output == nil {
                // It ended without a word on standard output: its task says why.
                _ = try await outcome.value
            }
            return ChildProcess(startOutput: output ?? "", signals: signalling, outcome: outcome)
        } onCancel: {
            outcome.cancel()
        }
    }

    /// Sends a signal to the child, unless it has ended.
    ///
    /// - Parameter signal: `SIGINT`, `SIGTERM`, `SIGKILL`, …
    public func send(_ signal: Int32) {
        signals.yield(signal)
    }

    /// Waits for the child to end.
    ///
    /// A cancelled wait ends the child: SIGTERM, then SIGKILL 5 seconds later.
    ///
    /// - Returns: everything it printed since it started, and how it ended.
    /// - Throws: `SubprocessError` when its output could not be read.
    public func wait() async throws -> ProcessResult {
        try await withTaskCancellationHandler {
            try await outcome.value
        } onCancel: {
            outcome.cancel()
        }
    }

    /// A finished read of one output stream.
    private enum Stream {
        case output([UInt8])
        case error([UInt8])
    }

    /// Runs the child, reading both output streams, writing `input`, and delivering `signals`,
    /// until it ends.
    private static func launch(
        _ executable: String, _ arguments: [String], environment: ChildEnvironment, input: [UInt8],
        signals: AsyncStream<Int32>, isReady: @escaping @Sendable (String) -> Bool,
        announce: AsyncStream<String>.Continuation
    ) async throws -> ProcessResult {
        var options = PlatformOptions()
        options.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: .seconds(5))]
        let result = try await Subprocess.run(
            .path(FilePath(executable)), arguments: Arguments(arguments), environment: environment.variables,
            platformOptions: options, input: .inputWriter, output: .sequence, error: .sequence
        ) { execution in
            try await withThrowingTaskGroup(of: Stream?.self) { group in
                group.addTask {
                    var bytes: [UInt8] = []
                    var announced = false
                    if isReady("") {
                        announce.yield("")
                        announced = true
                    }
                    for try await buffer in execution.standardOutput {
                        buffer.withUnsafeBytes { bytes.append(contentsOf: $0) }
                        if !announced, case let text = String(decoding: bytes, as: UTF8.self), isReady(text) {
                            announce.yield(text)
                            announced = true
                        }
                    }
                    if !announced {
                        announce.yield(String(decoding: bytes, as: UTF8.self))
                    }
                    return .output(bytes)
                }
                group.addTask {
                    var bytes: [UInt8] = []
                    for try await buffer in execution.standardError {
                        buffer.withUnsafeBytes { bytes.append(contentsOf: $0) }
                    }
                    return .error(bytes)
                }
                group.addTask {
                    // A child that exits without reading its input is not an error of the run.
                    if !input.isEmpty {
                        _ = try? await execution.standardInputWriter.write(input)
                    }
                    try? await execution.standardInputWriter.finish()
                    return nil
                }
                group.addTask {
                    // Delivered while the child runs; ends when both output streams have.
                    for await signal in signals {
                        try? execution.send(signal: Signal(rawValue: signal))
                    }
                    return nil
                }
                var output: [UInt8]?
                var error: [UInt8]?
                while output == nil || error == nil, let next = try await group.next() {
                    switch next {
                    case .output(let bytes): output = bytes
                    case .error(let bytes): error = bytes
                    case nil: break
                    }
                }
                group.cancelAll()
                return (output: Data(output ?? []), error: Data(error ?? []))
            }
        }
        let (output, error) = result.closureResult
        switch result.terminationStatus {
        case .exited(let code):
            return ProcessResult(status: code, signal: nil, standardOutput: output, standardError: error)
        case .signaled(let signal):
            return ProcessResult(status: nil, signal: signal, standardOutput: output, standardError: error)
        }
    }
}

extension ChildEnvironment {
    /// The environment as swift-subprocess takes it.
    fileprivate var variables: Subprocess.Environment {
        switch self {
        case .inheriting(let additions):
            .inherit.updating(
                Dictionary(uniqueKeysWithValues: additions.map { (Environment.Key(stringLiteral: $0.key), $0.value) }))
        case .exactly(let variables):
            .custom(
                Dictionary(uniqueKeysWithValues: variables.map { (Environment.Key(stringLiteral: $0.key), $0.value) }))
        }
    }
}
