import Foundation

/// Where `passkey-bench` writes: figures on standard output, progress and reasons on standard error.
enum BenchOutput {
    /// Writes one progress line to standard error, after `bench: `.
    static func progress(_ line: String) {
        FileHandle.standardError.write(Data(("bench: " + line + "\n").utf8))
    }

    /// Writes `value` as JSON with `--json`, else `lines`, one a line, to standard output.
    static func write(_ value: some Encodable, json: Bool, lines: @autoclosure () -> [String]) throws {
        if json {
            try self.json(value)
        } else {
            for line in lines() { print(line) }
        }
    }

    /// Writes figures to standard output as pretty JSON with sorted keys.
    static func json(_ value: some Encodable) throws {
        print(String(decoding: try encoded(value), as: UTF8.self))
    }

    /// Figures as pretty JSON with sorted keys, as ``json(_:)`` prints them.
    static func encoded(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}

/// Why a bench stopped: a setting it cannot use, or a measured call that failed.
struct BenchError: Error, CustomStringConvertible {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    var description: String { reason }
}
