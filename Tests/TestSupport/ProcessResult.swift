public import FoundationEssentials

/// What a finished ``ChildProcess`` printed and how it ended.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status; nil when a signal ended the process.
    public let status: Int32?
    /// The signal that ended the process; nil when it exited.
    public let signal: Int32?
    /// Everything the process wrote to standard output.
    public let standardOutput: Data
    /// Everything the process wrote to standard error.
    public let standardError: Data

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - status: the exit status, or nil.
    ///   - signal: the signal that ended the process, or nil.
    ///   - standardOutput: what it wrote to standard output.
    ///   - standardError: what it wrote to standard error.
    public init(status: Int32?, signal: Int32?, standardOutput: Data, standardError: Data) {
        self.status = status
        self.signal = signal
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Standard output decoded as UTF-8.
    public var stdout: String { String(decoding: standardOutput, as: UTF8.self) }

    /// Standard error decoded as UTF-8.
    public var stderr: String { String(decoding: standardError, as: UTF8.self) }

    /// How it ended and what it printed, for a failed expectation's message.
    public var description: String {
        let ending = status.map { "exit \($0)" } ?? "signal \(signal ?? 0)"
        return "\(ending)\nstdout: \(stdout)\nstderr: \(stderr)"
    }
}
