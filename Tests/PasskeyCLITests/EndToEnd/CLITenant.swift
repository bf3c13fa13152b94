import Foundation

/// `passkey tenant serve` as a separate process on a loopback port, with its database in a file.
final class CLITenant {
    let process: Process
    let url: String
    let clientID: String
    let port: Int

    /// Starts the tenant and waits for its start line.
    ///
    /// - Parameters:
    ///   - database: the SQLite file; a restart on the same file keeps users and passkeys.
    ///   - port: 0 for a free port, or the port of a previous run.
    ///   - arguments: more `tenant serve` options (`--require-uv`, `--client-id`, …).
    init(database: String, port: Int = 0, arguments: [String] = []) throws {
        process = Process()
        process.executableURL = CLIProcess.executable
        process.arguments = ["tenant", "serve", "--json", "--db", database, "--port", String(port)] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var data = Data()
        while !data.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data += chunk
        }
        guard let line = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let url = line["url"] as? String, let clientID = line["client_id"] as? String,
            let port = url.split(separator: ":").last.flatMap({ Int($0) })
        else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: "no start line: \(data)"])
        }
        self.url = url
        self.clientID = clientID
        self.port = port
    }

    /// Stops it with SIGTERM and waits.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
