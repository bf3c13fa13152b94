import Dispatch
import PasskeyAuthenticator
import PasskeyCTAP
import Synchronization
import WebAuthn

/// The two CTAP targets: a fresh software security key per input (an in-memory store holding its
/// credentials, PIN state and large blobs, credential management on), so every input is replayed
/// from the same state.
///
/// - `ctap-cbor`: the input is CTAP2 messages (command byte ‖ CBOR parameters, CTAP 2.1 §8.1), each
///   prefixed by its length as two big-endian bytes (a short last one takes what is left), sent in
///   turn to `CTAPDevice.handle`, so one input can make a credential and then use it. Every answer
///   must be a status byte; a `CTAP2_OK` body must be canonical CBOR (§8: it decodes and re-encodes
///   to the same bytes).
/// - `ctaphid`: the input is reports for `CTAPHIDDevice` (§11.2.4), each `selector ‖ n ‖ n bytes`.
///   The selector's low three bits pick the channel: 0 broadcast, 1–4 the first channels INIT
///   allocates, 5 channel 0, 6 one never allocated, 7 the four bytes that follow. Its top bit sends
///   the n bytes as they are (a report of any length, which the device must drop); otherwise they
///   are the report after the channel (command or sequence first), zero-padded to 64 bytes. After
///   the input the device must not be wedged: with every `CTAPHID_LOCK` expired (the clock is moved,
///   not waited for), an INIT on the broadcast channel allocates a fresh channel and a PING there
///   is echoed once whatever was under way finishes or times out. A device that never answers
///   hangs the input, which libFuzzer reports (`-timeout`).
enum CTAPFuzz {
    static func commands(_ bytes: [UInt8]) {
        let messages = framed(bytes)
        blocking {
            let device = makeDevice(clock: .continuous)
            for message in messages {
                let answer = await device.handle(message, context: CTAPTransaction(channel: 1))
                guard let status = answer.first else { fatalError("an answer without a status byte") }
                guard status == 0, answer.count > 1 else { continue }
                guard let body = try? CBOR(decoding: answer.dropFirst()), body.encoded() == Array(answer.dropFirst())
                else { fatalError("a CTAP2_OK body that is not canonical CBOR: \(answer)") }
            }
        }
    }

    static func reports(_ bytes: [UInt8]) {
        let reports = Self.reports(in: bytes)
        blocking {
            let time = FuzzClock()
            let device = CTAPHIDDevice(
                handler: makeDevice(clock: time.clock), messageTimeout: .milliseconds(2), clock: time.clock)
            let ignored: CTAPHIDDevice.Reply = { _ in }
            for report in reports { await device.receive(report, reply: ignored) }
            time.advance(by: .seconds(11))
            await expectAnswers(device)
        }
    }

    // MARK: The software key

    private static func makeDevice(clock: CTAPClock) -> CTAPDevice {
        let store = InMemoryCredentialStore()
        return CTAPDevice(
            authenticator: SoftwareAuthenticator(store: store, profile: .securityKey), state: store,
            wipe: CTAPDevice.wiping(store), clock: clock, credentials: store)
    }

    // MARK: ctap-cbor input

    private static func framed(_ bytes: [UInt8]) -> [[UInt8]] {
        var rest = bytes[...]
        var messages: [[UInt8]] = []
        while rest.count >= 2 {
            let length = Int(rest[rest.startIndex]) << 8 | Int(rest[rest.startIndex + 1])
            rest = rest.dropFirst(2)
            messages.append(Array(rest.prefix(length)))
            rest = rest.dropFirst(length)
        }
        return messages
    }

    // MARK: ctaphid input and the liveness probe

    private static let broadcast: UInt32 = 0xFFFF_FFFF

    private static func reports(in bytes: [UInt8]) -> [[UInt8]] {
        var rest = bytes[...]
        var reports: [[UInt8]] = []
        while rest.count >= 2 {
            let selector = rest[rest.startIndex]
            let count = Int(rest[rest.startIndex + 1])
            rest = rest.dropFirst(2)
            let channel: [UInt8]
            switch selector & 0x07 {
            case 0: channel = bigEndian(broadcast)
            case 5: channel = [0, 0, 0, 0]
            case 6: channel = bigEndian(0x7FFF_FFFF)
            case 7:
                channel = Array(rest.prefix(4)) + [UInt8](repeating: 0, count: max(0, 4 - rest.count))
                rest = rest.dropFirst(4)
            default: channel = bigEndian(UInt32(selector & 0x07))
            }
            let body = Array(rest.prefix(count))
            rest = rest.dropFirst(count)
            if selector & 0x80 != 0 {
                reports.append(channel + body)
            } else {
                let report = channel + body.prefix(60)
                reports.append(report + [UInt8](repeating: 0, count: 64 - report.count))
            }
        }
        return reports
    }

    private static func expectAnswers(_ device: CTAPHIDDevice) async {
        let nonce: [UInt8] = [0x6E, 0x6F, 0x6E, 0x63, 0x65, 0x21, 0x21, 0x21]
        let initAnswer = await exchange(device, packet(broadcast, command: 0x86, payload: nonce))
        guard initAnswer.count == 1, Array(initAnswer[0][7..<15]) == nonce else {
            fatalError("CTAPHID_INIT on the broadcast channel was not answered: \(initAnswer)")
        }
        let channel = initAnswer[0][15..<19].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let ping = packet(channel, command: 0x81, payload: Array("alive?".utf8))
        while true {
            let answer = await exchange(device, ping)
            guard answer.count == 1 else { fatalError("a PING got \(answer.count) reports") }
            if answer[0] == ping { return }
            // ERR_CHANNEL_BUSY: another channel's message or command is under way; it ends by itself.
            guard answer[0][4...7] == [0xBF, 0, 1, 0x06] else { fatalError("a PING got \(answer[0])") }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Sends one report; what the device answered to it at once (INIT, PING and errors are synchronous).
    private static func exchange(_ device: CTAPHIDDevice, _ report: [UInt8]) async -> [[UInt8]] {
        let received = Received()
        await device.receive(report) { received.append($0) }
        return received.reports
    }

    private static func packet(_ channel: UInt32, command: UInt8, payload: [UInt8]) -> [UInt8] {
        let head = bigEndian(channel) + [command, 0, UInt8(payload.count)] + payload
        return head + [UInt8](repeating: 0, count: 64 - head.count)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).reversed().map { UInt8(value >> (8 * $0) & 0xFF) }
    }

    /// Runs async work to its end from libFuzzer's synchronous callback.
    private static func blocking(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }
}

/// The reports a reply closure got.
private final class Received: Sendable {
    private let list = Mutex<[[UInt8]]>([])
    /// One message's reports, as a `CTAPHIDDevice.Reply` carries them.
    func append(_ reports: [[UInt8]]) { list.withLock { $0 += reports } }
    var reports: [[UInt8]] { list.withLock { $0 } }
}

/// A clock the harness moves, so a `CTAPHID_LOCK` in the input is over without waiting.
private final class FuzzClock: Sendable {
    private let instant = Mutex(ContinuousClock.now)
    func advance(by duration: Duration) { instant.withLock { $0 = $0.advanced(by: duration) } }
    var clock: CTAPClock { CTAPClock { self.instant.withLock { $0 } } }
}
