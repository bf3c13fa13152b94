import Foundation
import TestSupport
import WebAuthn

/// `passkey tenant serve` as a separate process on a loopback port, with its database in a file.
final class CLITenant: Sendable {
    let process: ChildProcess
    let url: String
    let clientID: String
    let port: Int

    /// Starts the tenant and waits for its start line.
    ///
    /// - Parameters:
    ///   - database: the SQLite file; a restart on the same file keeps users and passkeys.
    ///   - port: 0 for a free port, or the port of a previous run.
    ///   - arguments: more `tenant serve` options (`--require-uv`, `--client-id`, …).
    init(database: String, port: Int = 0, arguments: [String] = []) async throws {
        let process = try await ChildProcess.start(
            CLIProcess.executable, ["tenant", "serve", "--json", "--db", database, "--port", String(port)] + arguments,
            readyWhen: { $0.contains("\n") })
        let data = Data(process.startOutput.utf8)
        guard let line = try? JSONValue(json: data),
            let url = line["url"]?.stringValue, let clientID = line["client_id"]?.stringValue,
            let port = url.split(separator: ":").last.flatMap({ Int($0) })
        else {
            process.send(SIGTERM)
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: "no start line: \(data)"])
        }
        self.process = process
        self.url = url
        self.clientID = clientID
        self.port = port
    }

    /// Stops it with SIGTERM and waits; a tenant released without it gets SIGTERM all the same.
    func stop() async {
        process.send(SIGTERM)
        _ = try? await process.wait()
    }
}
