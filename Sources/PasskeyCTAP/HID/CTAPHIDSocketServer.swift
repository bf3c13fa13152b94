import BlockingIO
import Synchronization

/// Serves a ``CTAPHIDDevice`` on a Unix stream socket: each report exactly 64 bytes each way, with
/// no framing around it (issue 29's `passkey device --socket`), for tests and for clients that take
/// a custom transport (python-fido2's `CtapHidConnection`, libfido2's `fido_dev_set_io_functions`).
///
/// Every connection talks to the one device, as every process that opens a USB key's hidraw node
/// does; the answers to a connection's reports go back to that connection only. The device keeps
/// the transactions apart by channel (CTAP 2.1 §11.2.3).
///
/// The socket and each connection go through the package's one I/O layer (BlockingIO's
/// `UnixSocketListener` and `DescriptorChannel`, as ``CTAPHIDUHIDDevice`` does for `/dev/uhid`):
/// accepting, reading and writing block, so they run on dispatch queues of their own, never on
/// the Swift concurrency pool. A connection's reader hands reports on in order, at most a few
/// ahead of the device, so a client that floods is slowed down, not buffered.
public struct CTAPHIDSocketServer: Sendable {
    /// The device behind the socket.
    public let device: CTAPHIDDevice
    /// The socket's path.
    public let path: String

    /// Creates a server; ``run(onStart:)`` listens.
    ///
    /// - Parameters:
    ///   - device: the device every connection talks to.
    ///   - path: where the socket goes; the file must not exist.
    public init(device: CTAPHIDDevice, path: String) {
        self.device = device
        self.path = path
    }

    /// Listens and serves until the task is cancelled, then closes every connection and removes
    /// the socket file.
    ///
    /// - Parameter onStart: called once the socket accepts connections.
    /// - Throws: ``CTAPHIDTransportError`` when the socket cannot be made (a path too long, a file
    ///   already there, a directory not writable).
    public func run(onStart: @Sendable () async -> Void = {}) async throws(CTAPHIDTransportError) {
        let listener: UnixSocketListener
        do throws(SystemCallError) {
            listener = try UnixSocketListener(path: path)
        } catch {
            throw CTAPHIDTransportError(error)
        }
        await onStart()
        let open = OpenConnections()
        let accepted = listener.connections()
        let (device, path) = (device, path)
        await withTaskCancellationHandler {
            await withDiscardingTaskGroup { group in
                for await descriptor in accepted {
                    guard
                        let channel = try? DescriptorChannel(
                            descriptor, path: path, framing: .records(size: CTAPHIDPacket.size), closing: true),
                        open.insert(channel)
                    else {
                        continue
                    }
                    group.addTask {
                        await Self.serve(channel, device)
                        open.remove(channel)
                    }
                }
            }
        } onCancel: {
            listener.stop()
            open.stopAll()
        }
        await listener.close()
    }

    /// Hands a connection's reports to the device in order, its answers back to it.
    private static func serve(_ channel: DescriptorChannel, _ device: CTAPHIDDevice) async {
        // A message's reports in one write: the client's read takes them at once.
        let reply: CTAPHIDDevice.Reply = { reports in channel.send(Array(reports.joined())) }
        for await report in channel.messages() {
            await device.receive(report, reply: reply)
            channel.taken()
        }
        // A connection's end, or its failure, is the client's business: the others go on.
        _ = await channel.finish()
    }
}

/// The open connections, so that stopping the server can stop them.
private final class OpenConnections: Sendable {
    private let state = Mutex((channels: [ObjectIdentifier: DescriptorChannel](), stopped: false))

    /// Adds a connection; false once the server stopped (the channel closes its descriptor when it goes).
    func insert(_ channel: DescriptorChannel) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.channels[ObjectIdentifier(channel)] = channel
            return true
        }
    }

    /// Forgets a connection that ended.
    func remove(_ channel: DescriptorChannel) {
        _ = state.withLock { $0.channels.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Stops every connection: their readers see the end.
    func stopAll() {
        state.withLock { state in
            state.stopped = true
            for channel in state.channels.values { channel.stop() }
        }
    }
}
