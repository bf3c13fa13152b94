import BlockingIO
import Foundation

/// Commands `passkey-bench` measures in new processes: the `passkey` built beside it (a new
/// process's first `get`, its start, its memory) and `du`.
///
/// Children start with `posix_spawn` (Foundation's `Process`), which copies nothing of this
/// process, and are waited for on a thread of their own, off the concurrency pool.
struct ChildProcesses {
    /// The `passkey` built beside this executable.
    let passkey: String
    private let io = BlockingExecutor(label: "passkey-bench: child processes")

    /// GNU time (Debian's `time`, which `make setup` installs).
    static let gnuTime = "/usr/bin/time"

    /// Finds the `passkey` built beside this executable (`swift build` puts both in one folder).
    ///
    /// - Throws: ``BenchError`` when there is none.
    init() throws {
        let bench = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        passkey = URL(fileURLWithPath: bench).deletingLastPathComponent().appendingPathComponent("passkey").path
        guard FileManager.default.isExecutableFile(atPath: passkey) else {
            throw BenchError("no passkey beside \(bench) to start: build it (swift build) first")
        }
    }

    /// The wall time of `passkey arguments` in a new process, from its start to its exit.
    ///
    /// - Throws: ``BenchChildFailure`` when it exits non-zero.
    func seconds(_ arguments: [String]) async throws -> Double {
        try await run(passkey, arguments).seconds
    }

    /// The median wall time of `runs` new processes of `passkey arguments(run)`.
    func medianSeconds(runs: Int, _ arguments: (Int) -> [String]) async throws -> Double {
        var times: [Double] = []
        for run in 0..<runs {
            times.append(try await seconds(arguments(run)))
        }
        return times.sorted()[times.count / 2]
    }

    /// The most memory `passkey arguments` held, in MB, as GNU time reports it (`%M`: the child's
    /// own `ru_maxrss`, from a parent as small as `time`); `nan` without `/usr/bin/time`.
    func mostResidentMegabytes(_ arguments: [String]) async throws -> Double {
        guard FileManager.default.isExecutableFile(atPath: Self.gnuTime) else {
            return .nan
        }
        let report = try await run(Self.gnuTime, ["-f", "%M", passkey] + arguments).errors
        return (report.split(separator: "\n").last.flatMap { Double($0) } ?? .nan) / 1024
    }

    /// The bytes the files below `path` take on disk, allocated blocks included (`du -s -B1`).
    func diskBytes(_ path: String) async throws -> Double {
        let output = try await run("/usr/bin/du", ["-s", "-B1", path], capturingOutput: true).output
        guard let bytes = output.split(whereSeparator: \.isWhitespace).first.flatMap({ Double($0) }) else {
            throw BenchChildFailure(reason: "du -s -B1 \(path) printed \(output)")
        }
        return bytes
    }

    /// Runs a command to its end; its standard output is discarded unless `capturingOutput` (a
    /// child that prints a lot could then fill the pipe while its standard error is read).
    private func run(_ executable: String, _ arguments: [String], capturingOutput: Bool = false) async throws
        -> (seconds: Double, output: String, errors: String)
    {
        try await io.run { () throws -> (seconds: Double, output: String, errors: String) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = capturingOutput ? output : FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            let clock = ContinuousClock()
            let start = clock.now
            try process.run()
            let printed = capturingOutput ? output.fileHandleForReading.readDataToEndOfFile() : Data()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let seconds = (clock.now - start).seconds
            guard process.terminationStatus == 0 else {
                throw BenchChildFailure(reason: "\(([executable] + arguments).joined(separator: " ")): \(text)")
            }
            return (seconds, String(decoding: printed, as: UTF8.self), text)
        }
    }
}
