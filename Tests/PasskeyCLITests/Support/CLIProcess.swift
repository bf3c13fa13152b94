import Foundation

/// What one run of the built `passkey` printed and how it exited.
struct CLIResult: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    /// The standard-error lines.
    var errorLines: [Substring] { stderr.split(separator: "\n") }

    /// Standard output decoded as a JSON object.
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        return object
    }

    var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// Runs the built `passkey` binary as a user would, with an environment of its own.
enum CLIProcess {
    /// The built `passkey`, next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("passkey")
    }

    /// Runs `passkey arguments…` to completion (killed after `timeout` seconds).
    static func run(_ arguments: [String], environment: [String: String], timeout: Double = 120) throws -> CLIResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let watchdog = Thread {
            Thread.sleep(forTimeInterval: timeout)
            if process.isRunning { process.terminate() }
        }
        watchdog.start()
        // Standard error is read on another thread so that neither pipe can fill up and block.
        let errorData = LockedData()
        let reader = Thread { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData.wait(), as: UTF8.self))
    }

    /// Bytes handed from one thread to another.
    final class LockedData: @unchecked Sendable {
        private let condition = NSCondition()
        private var data: Data?

        func set(_ value: Data) {
            condition.lock()
            data = value
            condition.signal()
            condition.unlock()
        }

        func wait() -> Data {
            condition.lock()
            defer { condition.unlock() }
            while data == nil { condition.wait() }
            return data!
        }
    }
}
