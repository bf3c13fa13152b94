import ArgumentParser
import BlockingIO
import Foundation
import Glibc
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
                measured = .success(try await measure(device, socketPath: server.path))
            } catch {
                measured = .failure(error)
            }
            serving.cancel()
            try await serving.value
            let figures = try measured.get()
            try BenchOutput.write(figures, json: json, lines: figures.map(\.line))
        }

        private func measure(_ device: CTAPDevice, socketPath: String) async throws -> [BenchFigure] {
            let socket = try SocketHIDClient(path: socketPath)
            defer { socket.close() }
            let inProcess = { (message: [UInt8]) async throws in
                _ = try Self.check(await device.handle(message, context: CTAPTransaction(channel: 1)))
            }
            let overSocket = { (message: [UInt8]) async throws in _ = try Self.check(try await socket.cbor(message)) }
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
                baseline: "ctap-process-get-assertion", baselineLabel: "getAssertion/s in process", target: nil,
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

/// A CTAPHID host on a Unix socket (CTAP 2.1 §11.2.4): one channel taken with `CTAPHID_INIT`, then
/// messages cut into 64-byte reports, and answers put back together, keep-alives skipped. The
/// calls block, so they run on a queue of their own (``BlockingExecutor``).
private struct SocketHIDClient: Sendable {
    private let descriptor: Int32
    private let channel: UInt32
    private let executor = BlockingExecutor(label: "passkey-bench-ctaphid")

    init(path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            throw BenchError("connect \(path): errno \(errno)")
        }
        self.descriptor = descriptor
        let nonce: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let answer = try Self.transact(descriptor, channel: 0xFFFF_FFFF, command: 0x86, payload: nonce)
        guard answer.count == 17, Array(answer.prefix(8)) == nonce else { throw BenchError("no CTAPHID_INIT answer") }
        channel = answer[8..<12].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Sends a `CTAPHID_CBOR` message and returns the answer's payload: status byte, then CBOR.
    func cbor(_ message: [UInt8]) async throws -> [UInt8] {
        let descriptor = descriptor
        let channel = channel
        return try await executor.run { () throws(BenchError) in
            try Self.transact(descriptor, channel: channel, command: 0x90, payload: message)
        }
    }

    func close() {
        Glibc.close(descriptor)
    }

    private static func transact(_ descriptor: Int32, channel: UInt32, command: UInt8, payload: [UInt8])
        throws(BenchError) -> [UInt8]
    {
        let cid = (0..<4).reversed().map { UInt8(channel >> (8 * $0) & 0xFF) }
        var packets = [cid + [command, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload.prefix(57)]
        var sequence: UInt8 = 0
        var offset = 57
        while offset < payload.count {
            packets.append(cid + [sequence] + payload[offset..<min(offset + 59, payload.count)])
            sequence += 1
            offset += 59
        }
        for packet in packets { try write(descriptor, packet + [UInt8](repeating: 0, count: 64 - packet.count)) }
        while true {
            let first = try read(descriptor)
            guard Array(first.prefix(4)) == cid else { continue }
            if first[4] == 0xBB { continue }  // CTAPHID_KEEPALIVE
            guard first[4] == command else { throw BenchError("CTAPHID answered command \(first[4])") }
            let length = Int(first[5]) << 8 | Int(first[6])
            var answer = Array(first[7..<64].prefix(length))
            while answer.count < length { answer += try read(descriptor)[5..<64].prefix(length - answer.count) }
            return answer
        }
    }

    private static func write(_ descriptor: Int32, _ report: [UInt8]) throws(BenchError) {
        let sent = report.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == report.count else { throw BenchError("send: errno \(errno)") }
    }

    private static func read(_ descriptor: Int32) throws(BenchError) -> [UInt8] {
        var report = [UInt8](repeating: 0, count: 64)
        var filled = 0
        while filled < 64 {
            let count = report.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + filled, 64 - filled, 0) }
            guard count > 0 else { throw BenchError("the device closed the socket") }
            filled += count
        }
        return report
    }
}
