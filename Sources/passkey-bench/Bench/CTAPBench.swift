import ArgumentParser
import BlockingIO
import Foundation
import PasskeyAuthenticator
import PasskeyCTAP
import WebAuthn

extension PasskeyBench {
    /// `passkey-bench ctap`: authenticatorMakeCredential and authenticatorGetAssertion per second over
    /// `passkey device --socket`'s transport (CTAPHID over a Unix socket, CTAP 2.1 §11.2) beside the
    /// same commands sent to `CTAPDevice.handle` in process, in the same run.
    struct CTAPBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ctap",
            abstract: "makeCredential/s and getAssertion/s over the CTAPHID socket, beside in process.",
            discussion: """
                One software security key (in-memory store, ES256, packed attestation) behind a CTAPDevice; \
                the socket figures go through CTAPHIDSocketServer on a scratch path, from a client in this \
                process that sends 64-byte reports as python-fido2 and libfido2 do (INIT once, then CBOR \
                messages, keep-alives skipped). Each socket figure is measured alternately with its in-process \
                baseline (median of --rounds), so the ratio is the cost of the transport.
                """)

        @Option(help: "Seconds per measurement.")
        var seconds: Double = 1

        @Option(help: "Alternating rounds per figure; the median is reported.")
        var rounds: Int = 3

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            guard seconds > 0, rounds > 0 else { throw ValidationError("--seconds and --rounds must be positive") }
        }

        func run() async throws {
            let figures = try await Self.figures(seconds: seconds, rounds: rounds)
            try BenchOutput.write(figures, json: json, lines: figures.map(\.line))
        }

        /// The figures, as `passkey-bench ctap` prints them and `targets` judges them: the socket's
        /// getAssertion is held to 0.8 of in process (issue 46).
        static func figures(seconds: Double, rounds: Int) async throws -> [BenchFigure] {
            let scratch = try ScratchDirectory("passkey-bench-ctap", memory: true)
            defer { scratch.remove() }
            let store = InMemoryCredentialStore()
            let device = CTAPDevice(authenticator: SoftwareAuthenticator(store: store, profile: .securityKey))
            let server = CTAPHIDSocketServer(
                device: CTAPHIDDevice(handler: device), path: scratch.path + "/device.sock")
            let (started, starting) = AsyncStream.makeStream(of: Void.self)
            let serving = Task {
                defer { starting.finish() }
                try await server.run { starting.yield() }
            }
            var iterator = started.makeAsyncIterator()
            guard await iterator.next() != nil else {
                try await serving.value
                throw BenchError("the socket server stopped before it listened")
            }
            // The server's threads stop before the process exits, whatever the measurement did.
            let measured: Result<[BenchFigure], any Error>
            do {
                measured = .success(
                    try await measure(device, socketPath: server.path, seconds: seconds, rounds: rounds))
            } catch {
                measured = .failure(error)
            }
            serving.cancel()
            try await serving.value
            return try measured.get()
        }

        private static func measure(_ device: CTAPDevice, socketPath: String, seconds: Double, rounds: Int)
            async throws -> [BenchFigure]
        {
            let socket = try CTAPHIDSocketClient(path: socketPath)
            let channel = try await socket.allocate()
            let inProcess = { (message: [UInt8]) async throws in
                _ = try Self.check(await device.handle(message, context: CTAPTransaction(channel: 1)))
            }
            let overSocket = { (message: [UInt8]) async throws in
                let answer = try await socket.transact(
                    CTAPHIDMessage(channel: channel, command: .cbor, payload: message))
                guard answer.command == CTAPHIDCommand.cbor.rawValue else {
                    throw BenchError("CTAPHID answered command \(answer.command)")
                }
                _ = try Self.check(answer.payload)
            }
            let makeCredential = Self.makeCredentialMessage(userID: [1])
            // Another user's credential, which the measured makeCredential calls do not replace.
            let created = try Self.check(
                await device.handle(Self.makeCredentialMessage(userID: [2]), context: CTAPTransaction(channel: 1)))
            let getAssertion = try Self.getAssertionMessage(makeCredentialResponse: created)

            BenchOutput.progress("makeCredential, \(rounds) × \(seconds) s each way")
            var figures = try await BenchFigure.paired(
                "ctap-socket-make-credential", "makeCredential/s over the CTAPHID socket",
                baseline: "ctap-process-make-credential", baselineLabel: "makeCredential/s in process", target: nil,
                rounds: rounds, seconds: seconds, { try await overSocket(makeCredential) },
                against: { try await inProcess(makeCredential) })
            BenchOutput.progress("getAssertion, \(rounds) × \(seconds) s each way")
            figures += try await BenchFigure.paired(
                "ctap-socket-get-assertion", "getAssertion/s over the CTAPHID socket",
                baseline: "ctap-process-get-assertion", baselineLabel: "getAssertion/s in process", target: 0.8,
                rounds: rounds, seconds: seconds, { try await overSocket(getAssertion) },
                against: { try await inProcess(getAssertion) })
            return figures
        }

        private static let clientDataHash = [UInt8](repeating: 0x42, count: 32)

        /// A resident ES256 credential for one user: each new one replaces the user's last (CTAP 2.1
        /// §6.1.2 step 17), so the store does not grow while it is measured.
        private static func makeCredentialMessage(userID: [UInt8]) -> [UInt8] {
            [CTAPCommand.makeCredential.rawValue]
                + CBOR.map([
                    1: .bytes(clientDataHash), 2: ["id": "example.org", "name": "Example"],
                    3: ["id": .bytes(userID), "name": "ada", "displayName": "Ada"],
                    4: [["alg": -7, "type": "public-key"]], 7: ["rk": true],
                ]).encoded()
        }

        /// An assertion for the credential `response` made, named in the allow list.
        private static func getAssertionMessage(makeCredentialResponse response: [UInt8]) throws -> [UInt8] {
            let body = try CBOR(decoding: response.dropFirst())
            guard case .bytes(let authData)? = body[2],
                let credential = try AuthenticatorData(bytes: authData).attestedCredentialData
            else { throw BenchError("makeCredential answered no attested credential") }
            return [CTAPCommand.getAssertion.rawValue]
                + CBOR.map([
                    1: "example.org", 2: .bytes(clientDataHash),
                    3: [["type": "public-key", "id": .bytes(credential.credentialID)]],
                ]).encoded()
        }

        /// The answer, when its status is `CTAP2_OK`.
        private static func check(_ answer: [UInt8]) throws -> [UInt8] {
            guard answer.first == CTAPStatus.ok.rawValue else {
                throw BenchError("the device answered status \(answer.first.map { String($0) } ?? "none")")
            }
            return answer
        }
    }
}
