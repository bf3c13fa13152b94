import BlockingIO
import Foundation
import PasskeyAuthenticator
import WebAuthn

/// The scale figures of `passkey-bench`: a store of many credentials (100,000 by default),
/// opened by a fresh instance as a new CLI process would, then looked up by credential ID and
/// listed by RP ID; a fresh instance's first `get`; and fresh `passkey` processes that sign once
/// and list the whole store, with the most memory such a process holds.
struct LargeStoreBench {
    let count: Int
    let directory: String
    let lookups = 2000

    func figures(progress: (String) -> Void) async throws -> [BenchFigure] {
        let existing =
            (try? FileManager.default.contentsOfDirectory(atPath: directory + "/credentials"))?.count(where: {
                $0.hasSuffix(".json")
            }) ?? 0
        if existing < count {
            progress("filling a \(count)-credential store in \(directory) (kept for later runs)")
            try await fill(try await FileCredentialStore(directory: directory), from: existing)
        }
        // Fresh processes and the first get come first, before this process's heap holds the
        // whole store.
        progress("fresh passkey processes on the \(count)-credential store")
        let processes = try await freshProcesses()
        progress("looking up in the \(count)-credential store")
        let clock = ContinuousClock()
        var firstGets: [Duration] = []
        for _ in 0..<5 {
            firstGets.append(
                try await clock.measure { try await getOnce(from: FileCredentialStore(directory: directory)) })
        }
        let firstGet = firstGets.sorted()[firstGets.count / 2]
        let reopened = try await FileCredentialStore(directory: directory)
        let opening = try await clock.measure { _ = try await reopened.credentials(rpID: Self.rpID(0)) }
        let ids = try await reopened.all().credentials.map(\.id)
        let byID = try await Latencies.measure(count: lookups) { _ in
            _ = try await reopened.credential(id: ids.randomElement()!)
        }
        let byRP = try await Latencies.measure(count: lookups) { index in
            _ = try await reopened.credentials(rpID: Self.rpID(index))
        }
        return [
            BenchFigure(
                name: "large-store-first-get",
                label: "\(count) credentials: first get, new instance",
                value: firstGet.seconds * 1000, unit: "ms", target: 50),
            BenchFigure(
                name: "large-store-first-listing", label: "\(count) credentials: first listing by RP",
                value: opening.seconds * 1000, unit: "ms"),
            BenchFigure(
                name: "large-store-lookup-p50", label: "\(count) credentials: lookup by ID, p50",
                value: byID.milliseconds(atPercentile: 50), unit: "ms"),
            BenchFigure(
                name: "large-store-lookup-p99", label: "\(count) credentials: lookup by ID, p99",
                value: byID.milliseconds(atPercentile: 99), unit: "ms", target: 1),
            BenchFigure(
                name: "large-store-rp-p99", label: "\(count) credentials: listing one RP's 1, p99",
                value: byRP.milliseconds(atPercentile: 99), unit: "ms"),
            BenchFigure(
                name: "large-store-process-start", label: "fresh process: passkey --version",
                value: processes.start * 1000,
                unit: "ms"),
            BenchFigure(
                name: "large-store-process-get", label: "\(count) credentials: fresh process, passkey get",
                value: processes.get * 1000, unit: "ms"),
            BenchFigure(
                name: "large-store-process-list-memory", label: "\(count) credentials: passkey list, most resident",
                value: processes.listResidentMegabytes, unit: "MB", target: 150),
        ]
    }

    /// One RP per credential, so each RP listing returns one record among `count`.
    static func rpID(_ index: Int) -> String {
        "rp\(index % 100_000).bench.example"
    }

    /// The request options of a `get` at the first credential's RP.
    private static var requestOptions: PublicKeyCredentialRequestOptionsJSON {
        PublicKeyCredentialRequestOptionsJSON(challenge: Base64URL(SecureRandom.bytes(32)), rpId: rpID(0))
    }

    /// One discoverable `get` at the first credential's RP, as `passkey get` makes it.
    private func getOnce(from store: FileCredentialStore) async throws {
        let client = WebAuthnClient(authenticator: SoftwareAuthenticator(store: store, profile: .platform))
        _ = WebAuthnJSON.encode(
            try await client.get(Self.requestOptions, origin: try WebOrigin("https://\(Self.rpID(0))")))
    }

    /// Wall times of a `passkey --version` and a `passkey get` in new processes, and the most
    /// memory a `passkey list` of the whole store held, as GNU time reports it (`%M`: the child's
    /// own `ru_maxrss`, from a parent as small as `time`; `nan` without `/usr/bin/time`). Children
    /// start with `posix_spawn` (Foundation's `Process`), which copies nothing of this process,
    /// and are waited for on a thread of their own, off the concurrency pool.
    private func freshProcesses() async throws -> (start: Double, get: Double, listResidentMegabytes: Double) {
        let passkey = try Self.passkey()
        let io = BlockingExecutor(label: "passkey-bench: child processes")
        let scratch = try ScratchDirectory("passkey-bench-options")
        defer { scratch.remove() }
        try scratch.write("options.json", WebAuthnJSON.encode(Self.requestOptions))
        let options = scratch.path + "/options.json"
        func run(_ executable: String, _ arguments: [String]) async throws -> (seconds: Double, errors: String) {
            try await io.run { () throws -> (seconds: Double, errors: String) in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                process.standardOutput = FileHandle.nullDevice
                let errors = Pipe()
                process.standardError = errors
                let clock = ContinuousClock()
                let start = clock.now
                try process.run()
                let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                guard process.terminationStatus == 0 else {
                    throw BenchChildFailure(
                        reason: "\(([executable] + arguments).joined(separator: " ")): \(text)")
                }
                return ((clock.now - start).seconds, text)
            }
        }
        let start = try await run(passkey, ["--version"]).seconds
        let get = try await run(
            passkey, ["get", "--store", directory, "--origin", "https://\(Self.rpID(0))", "--options", options]
        ).seconds
        var listMegabytes = Double.nan
        if FileManager.default.isExecutableFile(atPath: Self.gnuTime) {
            let report = try await run(Self.gnuTime, ["-f", "%M", passkey, "list", "--store", directory]).errors
            listMegabytes = (report.split(separator: "\n").last.flatMap { Double($0) } ?? .nan) / 1024
        }
        return (start, get, listMegabytes)
    }

    /// The `passkey` built beside this executable (`swift build` puts both in one folder).
    ///
    /// - Throws: ``BenchError`` when there is none.
    static func passkey() throws -> String {
        let bench = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let passkey = URL(fileURLWithPath: bench).deletingLastPathComponent().appendingPathComponent("passkey").path
        guard FileManager.default.isExecutableFile(atPath: passkey) else {
            throw BenchError("no passkey beside \(bench) to start: build it (swift build) first")
        }
        return passkey
    }

    /// GNU time (Debian's `time`, which `make setup` installs).
    static let gnuTime = "/usr/bin/time"

    private func fill(_ store: FileCredentialStore, from start: Int) async throws {
        let secrets = try CredentialSecrets.random(.es256)  // one key for all: filling measures the store
        for index in start..<count {
            let id = SecureRandom.bytes(16)
            let key = try await store.makeKey(
                CredentialKeyRequest(credentialID: id, rpID: Self.rpID(index), algorithm: .es256, importing: secrets))
            try await store.add(
                StoredCredential(
                    id: id, rpID: Self.rpID(index), userHandle: Array("user-\(index)".utf8), userName: "user\(index)",
                    userDisplayName: "User \(index)", key: key, profile: "platform", backupEligible: true,
                    backupState: true, discoverable: true, createdAt: Date()))
        }
    }
}
