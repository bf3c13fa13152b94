import Foundation
import Testing
import WebAuthn

/// The credential store through the real `passkey` binary (issue 3, "Store"): `create` killed at
/// random instants loses no credential it reported, four processes creating and asserting at once
/// lose nothing and never reuse a counter value. Each child runs on a thread of its own, so
/// that waiting for it never holds a thread of the test pool.
@Suite struct StoreCrashTests {
    static let origin = "https://example.com"
    static let challenge = "AAECAwQFBgcICQoLDA0ODw"

    @Test func killedCreatesLoseNoCredentialTheyPrinted() async throws {
        let directory = try CLIDirectory()
        defer { directory.remove() }
        let outcome = try await onThread { () throws -> (reported: [Registration], killed: Int) in
            var reported: [Registration] = []
            var killed = 0
            // Kill instants spread over a whole run, from before the store opens to after the print.
            let clock = ContinuousClock()
            let start = clock.now
            for round in 0..<3 {
                _ = try Self.create(
                    user: "calibration\(round)", profile: "platform", store: directory.store, in: directory)
            }
            let runTime = (clock.now - start) / 3
            for round in 0..<200 {
                let options = directory.write("create-\(round).json", Self.creationOptions(user: "u\(round)"))
                let run = try CLIRun(
                    ["create", "--origin", Self.origin, "--store", directory.store, "--options", options],
                    killAfter: runTime * Double.random(in: 0...1.2))
                killed += run.status == nil ? 1 : 0
                // A response printed whole counts as reported, even if the kill came after it.
                if let registration = try? JSONDecoder().decode(Registration.self, from: run.standardOutput) {
                    reported.append(registration)
                }
            }
            return (reported, killed)
        }
        #expect(outcome.killed > 20, "kills landed mid-run (\(outcome.killed) of 200)")
        #expect(outcome.reported.count > 20, "some runs finished (\(outcome.reported.count) of 200)")

        let listing = try await onThread { try CLIRun(["list", "--json", "--store", directory.store]) }
        #expect(listing.status == 0)
        #expect(listing.standardError.isEmpty, "\(String(decoding: listing.standardError, as: UTF8.self))")
        let listed = try JSONDecoder().decode(Listing.self, from: listing.standardOutput)
        #expect(listed.problems.isEmpty)
        #expect(Set(listed.credentials.map(\.id)).isSuperset(of: outcome.reported.map(\.id)))

        for registration in outcome.reported.shuffled().prefix(5) {
            let assertion = try await onThread {
                try Self.get(registration.id, store: directory.store, in: directory)
            }
            let key = try COSEKey(
                spki: try Base64URL.decode(registration.response.publicKey),
                algorithm: COSEAlgorithm(rawValue: registration.response.publicKeyAlgorithm))
            #expect(try key.isValidSignature(assertion.signature, for: assertion.signedBytes))
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.store + "/credentials")
            .filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "temporary files of killed writers are removed on open")
        for (path, isDirectory) in try Self.entries(below: directory.store) {
            #expect(try Self.permissions(path) == (isDirectory ? 0o700 : 0o600), "\(path)")
        }
    }

    @Test func fourProcessesCreatingAndAssertingLoseNothingAndReuseNoCounter() async throws {
        let directory = try CLIDirectory()
        defer { directory.remove() }
        let shared = try await onThread {
            try Self.create(user: "shared", profile: "security-key", store: directory.store, in: directory)
        }
        let (workers, rounds) = (4, 4)
        let results = try await withThrowingTaskGroup(of: [(String, UInt32)].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    try await onThread {
                        var counters: [(String, UInt32)] = []
                        for round in 0..<rounds {
                            let own = try Self.create(
                                user: "w\(worker)r\(round)", profile: "security-key", store: directory.store,
                                in: directory)
                            counters.append((own, 0))
                            for id in [shared, own, shared] {
                                counters.append((id, try Self.get(id, store: directory.store, in: directory).signCount))
                            }
                        }
                        return counters
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let byCredential = Dictionary(grouping: results, by: \.0).mapValues { $0.map(\.1).filter { $0 > 0 } }
        #expect(byCredential.count == workers * rounds + 1)
        #expect(byCredential[shared]?.sorted() == Array(1...UInt32(workers * rounds * 2)))
        for (id, counters) in byCredential where id != shared {
            #expect(counters.sorted() == [1], "\(id)")
        }

        let listing = try await onThread { try CLIRun(["list", "--json", "--store", directory.store]) }
        let listed = try JSONDecoder().decode(Listing.self, from: listing.standardOutput)
        #expect(listed.problems.isEmpty)
        #expect(Set(listed.credentials.map(\.id)) == Set(byCredential.keys))
        #expect(listed.credentials.first { $0.id == shared }?.signCount == UInt32(workers * rounds * 2))
    }

    /// Every path below `root`, and the root itself, with whether it is a directory.
    static func entries(below root: String) throws -> [(String, Bool)] {
        var found = [(root, true)]
        for relative in try FileManager.default.subpathsOfDirectory(atPath: root) {
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory)
            found.append((root + "/" + relative, isDirectory.boolValue))
        }
        return found
    }

    static func permissions(_ path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw POSIXError(.ENOENT)
        }
        return Int(info.st_mode & 0o777)
    }

    // MARK: Ceremonies

    static func creationOptions(user: String) -> String {
        """
        {"rp":{"name":"X","id":"example.com"},\
        "user":{"id":"\(Base64URL.encode(SecureRandom.bytes(16)))","name":"\(user)","displayName":"\(user)"},\
        "challenge":"\(challenge)","pubKeyCredParams":[{"type":"public-key","alg":-7}],\
        "authenticatorSelection":{"residentKey":"required"}}
        """
    }

    /// Runs `passkey create` to the end; returns the new credential's ID.
    static func create(user: String, profile: String, store: String, in directory: CLIDirectory) throws -> String {
        let options = directory.write("create-\(user).json", creationOptions(user: user))
        let run = try CLIRun([
            "create", "--profile", profile, "--origin", origin, "--store", store, "--options", options,
        ])
        guard run.status == 0 else {
            throw CLIFailure(run)
        }
        return try JSONDecoder().decode(Registration.self, from: run.standardOutput).id
    }

    /// Runs `passkey get` for one credential (an allow list of one), to the end.
    static func get(_ id: String, store: String, in directory: CLIDirectory) throws -> Assertion {
        let options = directory.write(
            "get-\(UUID().uuidString).json",
            #"{"challenge":"\#(challenge)","rpId":"example.com","allowCredentials":[{"type":"public-key","id":"\#(id)"}]}"#
        )
        let run = try CLIRun(["get", "--origin", origin, "--store", store, "--options", options])
        guard run.status == 0 else {
            throw CLIFailure(run)
        }
        let response = try JSONDecoder().decode(AssertionJSON.self, from: run.standardOutput)
        #expect(response.id == id)
        return try Assertion(response)
    }
}

// MARK: - Responses

/// The parts of RegistrationResponseJSON these tests read (WebAuthn L3 §5.1.1).
struct Registration: Decodable {
    struct Response: Decodable {
        let publicKey: String
        let publicKeyAlgorithm: Int
    }
    let id: String
    let response: Response
}

/// The parts of AuthenticationResponseJSON these tests read.
struct AssertionJSON: Decodable {
    struct Response: Decodable {
        let authenticatorData: String
        let clientDataJSON: String
        let signature: String
    }
    let id: String
    let response: Response
}

/// An assertion's signed bytes, signature and counter.
struct Assertion {
    let signedBytes: [UInt8]
    let signature: [UInt8]
    /// authenticatorData bytes 33–36, big-endian (WebAuthn L3 §6.1: rpIdHash 32, flags 1, signCount 4).
    let signCount: UInt32

    init(_ json: AssertionJSON) throws {
        let authenticatorData = try Base64URL.decode(json.response.authenticatorData)
        guard authenticatorData.count >= 37 else {
            throw WebAuthnError(.truncated, "authenticator data of \(authenticatorData.count) bytes")
        }
        signCount = authenticatorData[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        signedBytes = authenticatorData + SHA256Digest.hash(try Base64URL.decode(json.response.clientDataJSON))
        signature = try Base64URL.decode(json.response.signature)
    }
}

/// `passkey list --json`.
struct Listing: Decodable {
    struct Credential: Decodable {
        let id: String
        let signCount: UInt32
    }
    let credentials: [Credential]
    let problems: [String]
}

// MARK: - Running the binary

/// A fresh temporary directory holding a store and the options files of one test.
struct CLIDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/passkey-cli-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw POSIXError(.EIO)
        }
        path = String(cString: made)
    }

    var store: String { path + "/store" }

    /// Writes a file of the directory and returns its path.
    func write(_ name: String, _ text: String) -> String {
        let file = path + "/" + name
        FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// One run of the `passkey` binary built next to this test bundle.
struct CLIRun {
    /// The exit status; `nil` when the run was killed.
    let status: Int32?
    let standardOutput: Data
    let standardError: Data

    /// Runs `passkey` with `arguments` and waits for it; with `killAfter`, sends SIGKILL that long
    /// after starting it, unless it has exited.
    init(_ arguments: [String], killAfter: Duration? = nil) throws {
        let process = Process()
        process.executableURL = CLIProcess.executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        if let killAfter {
            Thread.sleep(
                forTimeInterval: Double(killAfter.components.seconds) + Double(killAfter.components.attoseconds) / 1e18)
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
            }
        }
        standardOutput = output.fileHandleForReading.readDataToEndOfFile()
        standardError = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationReason == .uncaughtSignal ? nil : process.terminationStatus
    }
}

/// A run of `passkey` that should have succeeded.
struct CLIFailure: Error, CustomStringConvertible {
    let description: String

    init(_ run: CLIRun) {
        description =
            "passkey exited with \(run.status.map(String.init) ?? "a signal"): "
            + String(decoding: run.standardError, as: UTF8.self)
    }
}

/// Runs blocking work (waiting for child processes) on a thread of its own.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
