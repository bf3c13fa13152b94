import Foundation
import Subprocess
import SystemPackage

/// A `passkey` server (`serve`, `tenant serve`) run as a child process of its own for a memory
/// figure: started with `--json`, its start line read, its resident size read from the kernel
/// while it serves, stopped with SIGTERM.
struct ServedChild: Sendable {
    /// The server's JSON start line.
    let startLine: [UInt8]
    /// Its process ID.
    let pid: pid_t

    /// Runs `passkey ARGUMENTS` (the `passkey` beside this executable) while `body` runs, given
    /// the child once it has printed its start line; then sends it SIGTERM and waits for it.
    ///
    /// - Throws: ``BenchChildFailure`` when it ends before a start line; what `body` throws.
    static func serving<Value: Sendable>(
        _ arguments: [String], _ body: @Sendable (ServedChild) async throws -> Value
    ) async throws -> Value {
        let passkey = try ChildProcesses().passkey
        let result = try await Subprocess.run(
            .path(FilePath(passkey)), arguments: Arguments(arguments), input: .none, output: .sequence,
            error: .discarded
        ) { execution in
            var output = execution.standardOutput.makeAsyncIterator()
            var line: [UInt8] = []
            while !line.contains(UInt8(ascii: "\n")), let buffer = try await output.next() {
                buffer.withUnsafeBytes { line.append(contentsOf: $0) }
            }
            guard let end = line.firstIndex(of: UInt8(ascii: "\n")) else {
                throw BenchChildFailure(reason: "passkey \(arguments.joined(separator: " ")) printed no start line")
            }
            let outcome: Result<Value, any Error>
            do {
                outcome = .success(
                    try await body(ServedChild(startLine: Array(line[..<end]), pid: execution.processIdentifier.value)))
            } catch {
                outcome = .failure(error)
            }
            try? execution.send(signal: .terminate)
            while try await output.next() != nil {}
            return try outcome.get()
        }
        return result.closureResult
    }

    /// The child's resident size now (`VmRSS`) and at its most so far (`VmHWM`), in MB, from
    /// `/proc/PID/status` (proc(5)).
    ///
    /// - Throws: ``BenchChildFailure`` when the kernel shows neither.
    func residentMegabytes() throws -> (now: Double, peak: Double) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func kilobytes(_ field: String) -> Double? {
            status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
                .flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first }
                .flatMap { Double($0) }
        }
        guard let now = kilobytes("VmRSS"), let peak = kilobytes("VmHWM") else {
            throw BenchChildFailure(reason: "/proc/\(pid)/status shows no VmRSS")
        }
        return (now / 1024, peak / 1024)
    }
}
