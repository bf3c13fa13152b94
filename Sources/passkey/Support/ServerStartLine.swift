import ArgumentParser
import Foundation
import Synchronization

/// What a server command (`serve`, `conformance mds serve`) prints on standard output once it
/// listens: one line, compact JSON with `--json`, else text for a person.
protocol ServerStartLine: Encodable, Sendable {
    /// The line for a person.
    var text: String { get }
}

extension ServerStartLine {
    /// The line as compact JSON with sorted keys.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings only: always encodes.
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }
}

/// Runs a server until it stops, printing its start line once it listens; a failure is one line
/// on standard error, `COMMAND: cannot listen on PLACE: …` before it listened and
/// `COMMAND: stopped: …` after, and exit status 1.
///
/// - Parameters:
///   - command: the command's name in the error line.
///   - place: where it was to listen, for the error line.
///   - json: whether the start line is JSON.
///   - run: runs the server, calling its argument with the start line once it listens.
func serveReportingStart<Line: ServerStartLine>(
    _ command: String, place: String, json: Bool,
    _ run: (_ announce: @escaping @Sendable (Line) -> Void) async throws -> Void
) async throws {
    let listening = Mutex(false)
    do {
        try await run { line in
            listening.withLock { $0 = true }
            FileHandle.standardOutput.write(Data(((json ? line.json : line.text) + "\n").utf8))
        }
    } catch {
        printError(
            listening.withLock { $0 }
                ? "\(command): stopped: \(error)" : "\(command): cannot listen on \(place): \(error)")
        throw ExitCode(1)
    }
}
