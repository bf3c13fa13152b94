import Synchronization

/// A CTAPHID device (CTAP 2.1 §11.2): 64-byte reports in, 64-byte reports out, and every
/// `CTAPHID_CBOR` and `CTAPHID_MSG` message handed to a ``CTAPCommandHandler``.
///
/// It is the framing only, a thin adapter over the command layer: whatever carries the reports (a
/// Unix socket, `/dev/uhid`, a test) calls ``receive(_:reply:)`` with each report in the order it
/// came and the closure that carries this sender's answers back. What it does, per §11.2:
///
/// - **Channels.** `CTAPHID_INIT` on the broadcast channel `0xFFFFFFFF` allocates a new channel and
///   answers the client's 8-byte nonce with it, the protocol version 2, the device version and the
///   capabilities `WINK | CBOR`, with `NMSG` when the handler speaks no U2F; on an allocated channel it aborts that channel's
///   transaction (resynchronization). Any other command on the broadcast channel, on channel 0 or
///   on a channel never allocated is `ERR_INVALID_CHANNEL`.
/// - **Reassembly.** A message is an initialization packet (57 bytes of payload) and continuation
///   packets (59 bytes each, sequence 0…127), at most 7609 bytes (`ERR_INVALID_LEN` above).
///   A continuation packet out of order is `ERR_INVALID_SEQ`; one with no message under way is
///   ignored; a message whose next packet does not come within `messageTimeout` is
///   `ERR_MSG_TIMEOUT`.
/// - **One transaction at a time.** While a message is being received or its command runs,
///   other channels get `ERR_CHANNEL_BUSY`, and so does the same channel for anything but
///   `CTAPHID_CANCEL` and `CTAPHID_INIT`. So do other channels while one holds a `CTAPHID_LOCK`.
/// - **Commands.** `PING` echoes; `WINK` answers empty; `LOCK` takes 0–10 seconds
///   (`ERR_INVALID_PAR` above); `CBOR` runs the handler, sending `CTAPHID_KEEPALIVE` every
///   `keepAliveInterval` with the status the handler last reported (``KeepAliveStatus/processing``
///   until then); `MSG` runs the handler's U2F side (``CTAPCommandHandler/handleU2F(_:context:)``)
///   as one transaction too, without keep-alives, which U2F HID does not know (U2F answers at
///   once: a test of user presence the user has not passed yet is a status word the client
///   polls on), or is `ERR_INVALID_CMD` when the handler speaks no U2F; `CANCEL` marks the
///   channel's running command cancelled and is never answered itself (§11.2.9.1.5).
///
/// The timeouts and keep-alives are deadlines that one timer task keeps while a message is under
/// way or a command runs, not a task each: a command that answers in microseconds starts no timer
/// and cancels none.
public actor CTAPHIDDevice {
    /// Where the answers to one sender's reports go: each call carries one message's 64-byte
    /// reports, in order, so that a transport can write them at once (a stream socket in one
    /// write, `/dev/uhid` as one `UHID_INPUT2` event each).
    public typealias Reply = @Sendable ([[UInt8]]) -> Void

    /// The broadcast channel, on which clients ask for a channel of their own.
    public static let broadcastChannel: UInt32 = 0xFFFF_FFFF
    /// The capabilities byte of the `CTAPHID_INIT` response: `CAPABILITY_WINK` (0x01),
    /// `CAPABILITY_CBOR` (0x04), and `CAPABILITY_NMSG` (0x08, no `CTAPHID_MSG`) unless the handler
    /// speaks U2F.
    let capabilities: UInt8
    /// Whether the handler speaks U2F, so `CTAPHID_MSG` reaches it.
    private let speaksU2F: Bool

    /// A message being received.
    private struct Assembly {
        let channel: UInt32
        let command: UInt8
        let length: Int
        var payload: [UInt8]
        var nextSequence: UInt8 = 0
        let reply: Reply
        /// When the next packet is late: `messageTimeout` after the last one.
        var deadline: ContinuousClock.Instant
    }

    /// A CBOR or U2F command the handler is answering.
    private struct Running {
        let id: UInt64
        let channel: UInt32
        let shared: Shared
        let reply: Reply
        /// When the next `CTAPHID_KEEPALIVE` goes out; `nil` for U2F, which has none.
        var nextKeepAlive: ContinuousClock.Instant?
    }

    /// What the handler's `CTAPTransaction` shares with the device: the cancellation and the
    /// keep-alive status it last reported.
    private final class Shared: Sendable {
        private let cancelled = Atomic(false)
        private let status = Atomic(KeepAliveStatus.processing.rawValue)
        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
        func cancel() { cancelled.store(true, ordering: .releasing) }
        var keepAliveStatus: UInt8 { status.load(ordering: .acquiring) }
        func report(_ status: KeepAliveStatus) { self.status.store(status.rawValue, ordering: .releasing) }
    }

    private let handler: any CTAPCommandHandler
    private let messageTimeout: Duration
    private let keepAliveInterval: Duration
    private let version: (major: UInt8, minor: UInt8, build: UInt8)
    private let clock: CTAPClock

    /// The next channel to allocate: channels `1..<nextChannel` are allocated, with no table to grow.
    private var nextChannel: UInt32 = 1
    private var assembly: Assembly?
    private var running: Running?
    private var transactions: UInt64 = 0
    private var lock: (channel: UInt32, until: ContinuousClock.Instant)?
    /// The timer task, while a deadline is pending (``watch()``).
    private var watchdog: Task<Void, Never>?

    /// Creates a device in front of a command handler.
    ///
    /// - Parameters:
    ///   - handler: what answers `CTAPHID_CBOR` and `CTAPHID_MSG` messages (a `CTAPDevice`).
    ///   - messageTimeout: how long the next packet of a message may take before `ERR_MSG_TIMEOUT`.
    ///   - keepAliveInterval: how often `CTAPHID_KEEPALIVE` goes out while a CBOR command runs
    ///     (§11.2.9.1.7: at least every 100 ms).
    ///   - version: the device version in the `CTAPHID_INIT` response.
    ///   - clock: where the device reads the time for `CTAPHID_LOCK`; the system's by default.
    public init(
        handler: any CTAPCommandHandler, messageTimeout: Duration = .milliseconds(500),
        keepAliveInterval: Duration = .milliseconds(100),
        version: (major: UInt8, minor: UInt8, build: UInt8) = (0, 1, 0), clock: CTAPClock = .continuous
    ) {
        self.clock = clock
        self.handler = handler
        self.speaksU2F = handler.speaksU2F
        self.capabilities = 0x01 | 0x04 | (speaksU2F ? 0 : 0x08)
        self.messageTimeout = messageTimeout
        self.keepAliveInterval = keepAliveInterval
        self.version = version
    }

    /// Takes one report from a host.
    ///
    /// A report that is not 64 bytes long is no HID report of this device and is dropped.
    ///
    /// - Parameters:
    ///   - report: the 64 bytes.
    ///   - reply: where this sender's answers go, now or later (responses, keep-alives, errors).
    public func receive(_ report: [UInt8], reply: @escaping Reply) {
        guard let packet = try? CTAPHIDPacket(bytes: report) else { return }
        let channel = packet.channel
        switch packet.kind {
        case .continuation(let sequence):
            continueMessage(channel: channel, sequence: sequence, data: packet.data)
        case .initialization(let command, let length):
            startMessage(channel: channel, command: command, length: length, data: packet.data, reply: reply)
        }
    }

    // MARK: Reassembly

    private func startMessage(channel: UInt32, command: UInt8, length: Int, data: [UInt8], reply: @escaping Reply) {
        let fail = { (code: CTAPHIDErrorCode) in Self.send(.error(code, on: channel), to: reply) }
        if command == CTAPHIDCommand.initialize.rawValue {
            return initialize(channel: channel, length: length, nonce: data.prefix(8), reply: reply)
        }
        guard isAllocated(channel) else { return fail(.invalidChannel) }
        // CANCEL is never answered, whatever the device is doing (§11.2.9.1.5).
        if command == CTAPHIDCommand.cancel.rawValue {
            if let running, running.channel == channel { running.shared.cancel() }
            return
        }
        if let lock, lock.channel != channel, clock.now() < lock.until { return fail(.channelBusy) }
        if let assembly {
            guard assembly.channel == channel else { return fail(.channelBusy) }
            abortAssembly()
            return fail(.invalidSequence)
        }
        // The same channel too: only CANCEL and INIT may interrupt a running command (§11.2.9.1.5).
        guard running == nil else { return fail(.channelBusy) }
        guard length <= CTAPHIDMessage.maximumLength else { return fail(.invalidLength) }
        assembly = Assembly(
            channel: channel, command: command, length: length,
            payload: Array(data.prefix(length)), reply: reply, deadline: .now + messageTimeout)
        completeIfWhole()
        watch()
    }

    private func continueMessage(channel: UInt32, sequence: UInt8, data: [UInt8]) {
        // A continuation packet with no message under way on its channel is spurious: ignored (§11.2.4).
        guard var current = assembly, current.channel == channel else { return }
        guard sequence == current.nextSequence else {
            abortAssembly()
            return Self.send(.error(.invalidSequence, on: channel), to: current.reply)
        }
        current.payload += data.prefix(current.length - current.payload.count)
        current.nextSequence += 1
        current.deadline = .now + messageTimeout
        assembly = current
        completeIfWhole()
    }

    private func completeIfWhole() {
        guard let current = assembly, current.payload.count == current.length else { return }
        assembly = nil
        execute(
            CTAPHIDMessage(channel: current.channel, command: current.command, payload: current.payload),
            reply: current.reply)
    }

    /// Starts the timer task unless it runs. It sleeps until the next deadline, acts on what
    /// falls due then (a message's next packet that is late, a keep-alive), and ends when no
    /// deadline is left; while commands keep coming it stays, so a command starts no task of it.
    private func watch() {
        guard watchdog == nil, let first = untilNextDeadline(from: .now) else { return }
        watchdog = Task { [weak self] in
            var wait = first
            while true {
                try? await Task.sleep(for: wait)
                guard let next = await self?.actOnDeadlines() else { return }
                wait = next
            }
        }
    }

    /// What falls due now: a message whose next packet is late is `ERR_MSG_TIMEOUT` (§11.2.4); a
    /// running CBOR command's keep-alive goes out with the status the handler last reported.
    ///
    /// - Returns: how long until the next deadline; `nil` when none is left, and the task ends.
    private func actOnDeadlines() -> Duration? {
        let now = ContinuousClock.now
        if let current = assembly, now >= current.deadline {
            assembly = nil
            Self.send(.error(.messageTimeout, on: current.channel), to: current.reply)
        }
        if let current = running, let due = current.nextKeepAlive, now >= due {
            running?.nextKeepAlive = now + keepAliveInterval
            Self.send(
                CTAPHIDMessage(
                    channel: current.channel, command: .keepAlive, payload: [current.shared.keepAliveStatus]),
                to: current.reply)
        }
        guard let wait = untilNextDeadline(from: now) else {
            watchdog = nil
            return nil
        }
        return wait
    }

    /// How long the timer task sleeps: until the next deadline, and at most the shorter interval,
    /// so that a deadline set while it sleeps (never sooner than that) is not missed.
    private func untilNextDeadline(from now: ContinuousClock.Instant) -> Duration? {
        guard let next = [assembly?.deadline, running?.nextKeepAlive].compactMap({ $0 }).min() else { return nil }
        return min(next - now, messageTimeout, keepAliveInterval)
    }

    private func abortAssembly() {
        assembly = nil
    }

    // MARK: Commands

    private func isAllocated(_ channel: UInt32) -> Bool {
        channel != 0 && channel < nextChannel
    }

    /// `CTAPHID_INIT` (§11.2.9.1.3): an 8-byte nonce in; the nonce, the channel, the protocol
    /// version, the device version and the capabilities out.
    private func initialize(channel: UInt32, length: Int, nonce: ArraySlice<UInt8>, reply: @escaping Reply) {
        guard channel == Self.broadcastChannel || isAllocated(channel) else {
            return Self.send(.error(.invalidChannel, on: channel), to: reply)
        }
        guard length == 8 else { return Self.send(.error(.invalidLength, on: channel), to: reply) }
        let allocated: UInt32
        if channel == Self.broadcastChannel {
            allocated = nextChannel
            nextChannel += 1
        } else {
            allocated = channel
            if assembly?.channel == channel { abortAssembly() }
            if let current = running, current.channel == channel { abandonRunning() }
        }
        let channelBytes = (0..<4).reversed().map { UInt8(allocated >> (8 * $0) & 0xFF) }
        let payload = Array(nonce) + channelBytes + [2, version.major, version.minor, version.build, capabilities]
        Self.send(CTAPHIDMessage(channel: channel, command: .initialize, payload: payload), to: reply)
    }

    private func execute(_ message: CTAPHIDMessage, reply: @escaping Reply) {
        let channel = message.channel
        switch CTAPHIDCommand(rawValue: message.command) {
        case .ping:
            Self.send(message, to: reply)
        case .wink:
            guard message.payload.isEmpty else { return Self.send(.error(.invalidLength, on: channel), to: reply) }
            Self.send(CTAPHIDMessage(channel: channel, command: .wink), to: reply)
        case .lock:
            guard message.payload.count == 1 else { return Self.send(.error(.invalidLength, on: channel), to: reply) }
            let seconds = message.payload[0]
            guard seconds <= 10 else { return Self.send(.error(.invalidParameter, on: channel), to: reply) }
            lock = seconds == 0 ? nil : (channel, clock.now() + .seconds(Int(seconds)))
            Self.send(CTAPHIDMessage(channel: channel, command: .lock), to: reply)
        case .cbor:
            guard !message.payload.isEmpty else { return Self.send(.error(.invalidLength, on: channel), to: reply) }
            run(.cbor, message.payload, on: channel, reply: reply)
        case .msg where speaksU2F:
            run(.msg, message.payload, on: channel, reply: reply)
        case .msg, .initialize, .cancel, .keepAlive, .error, nil:
            Self.send(.error(.invalidCommand, on: channel), to: reply)
        }
    }

    /// `CTAPHID_CBOR` (§11.2.9.1.2): the handler answers while keep-alives go out; or
    /// `CTAPHID_MSG` (§11.2.9.1.1): its U2F side answers, with no keep-alive.
    private func run(_ command: CTAPHIDCommand, _ request: [UInt8], on channel: UInt32, reply: @escaping Reply) {
        transactions += 1
        let id = transactions
        let shared = Shared()
        running = Running(
            id: id, channel: channel, shared: shared, reply: reply,
            nextKeepAlive: command == .cbor ? .now + keepAliveInterval : nil)
        watch()
        let context = CTAPTransaction(
            channel: channel, isCancelled: { shared.isCancelled }, keepAlive: { shared.report($0) })
        let handler = handler
        Task { [weak self] in
            let response =
                command == .msg
                ? await handler.handleU2F(request, context: context) : await handler.handle(request, context: context)
            await self?.finish(transaction: id, command: command, response: response)
        }
    }

    private func finish(transaction id: UInt64, command: CTAPHIDCommand, response: [UInt8]) {
        guard let current = running, current.id == id else { return }
        abandonRunning()
        guard !response.isEmpty, response.count <= CTAPHIDMessage.maximumLength else {
            return Self.send(.error(.other, on: current.channel), to: current.reply)
        }
        Self.send(CTAPHIDMessage(channel: current.channel, command: command, payload: response), to: current.reply)
    }

    /// Forgets the running command: it is told it is cancelled, and its answer will be dropped.
    private func abandonRunning() {
        running?.shared.cancel()
        running = nil
    }

    private static func send(_ message: CTAPHIDMessage, to reply: Reply) {
        reply(message.packets.map(\.bytes))
    }
}

extension CTAPHIDMessage {
    /// A `CTAPHID_ERROR` response.
    static func error(_ code: CTAPHIDErrorCode, on channel: UInt32) -> CTAPHIDMessage {
        CTAPHIDMessage(channel: channel, command: .error, payload: [code.rawValue])
    }
}
