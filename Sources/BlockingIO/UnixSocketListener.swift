import Dispatch
import Glibc
import SystemPackage

/// A Unix stream socket listening at a path that only its owner may connect to (mode 0600), its
/// connections handed on as descriptors for ``DescriptorChannel``s.
///
/// `accept` blocks, so it waits on a dispatch queue of its own beside a wake-up, never on the
/// Swift concurrency pool; ``close()`` stops it, then closes the socket and removes its file.
///
/// `Sendable`: the descriptor, the path and the wake-up never change.
package final class UnixSocketListener: Sendable {
    /// The socket's path.
    package let path: String
    private let descriptor: Int32
    private let wakeup: Wakeup
    /// Entered while the accepting loop runs, so that closing waits for it.
    private let accepting = DispatchGroup()

    /// Makes the socket: `socket`, `bind`, `chmod` 0600, `listen`.
    ///
    /// - Parameters:
    ///   - path: where the socket goes; nothing may be there.
    ///   - backlog: how many connections may wait to be accepted.
    /// - Throws: ``SystemCallError`` naming the call that failed (`bind` for a path too long for a
    ///   socket address, with the limit in words, or one already taken); nothing is left behind.
    package init(path: String, backlog: Int32 = 16) throws(SystemCallError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let name = Array(path.utf8)
        guard !name.isEmpty, name.count < capacity else {
            throw SystemCallError(
                "bind", path, .fileNameTooLong, detail: "a socket path has 1 to \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let descriptor: Int32
        switch SystemCall.retrying({ socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }) {
        case .success(let made): descriptor = made
        case .failure(let errno): throw SystemCallError("socket", path, errno)
        }
        let bound = SystemCall.retrying {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        if case .failure(let errno) = bound {
            Glibc.close(descriptor)
            throw SystemCallError("bind", path, errno)
        }
        do throws(SystemCallError) {
            if case .failure(let errno) = SystemCall.retrying({ chmod(path, 0o600) }) {
                throw SystemCallError("chmod", path, errno)
            }
            if case .failure(let errno) = SystemCall.retrying({ listen(descriptor, backlog) }) {
                throw SystemCallError("listen", path, errno)
            }
            wakeup = try Wakeup(for: path)
        } catch {
            Glibc.close(descriptor)
            unlink(path)
            throw error
        }
        self.descriptor = descriptor
        self.path = path
    }

    /// Starts accepting (once): each connection's descriptor (close-on-exec, the receiver's to
    /// close), until ``close()``.
    package func connections() -> AsyncStream<Int32> {
        let (connections, continuation) = AsyncStream.makeStream(of: Int32.self)
        accepting.enter()
        DispatchQueue(label: "BlockingIO.UnixSocketListener.accept").async {
            accepting: while case .success(true) = self.wakeup.wait(for: self.descriptor) {
                switch SystemCall.retrying({ accept(self.descriptor, nil, nil) }) {
                case .success(let connection):
                    _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                    continuation.yield(connection)
                case .failure(let errno) where errno == .connectionAbort || errno == .resourceTemporarilyUnavailable:
                    continue
                case .failure:
                    break accepting
                }
            }
            continuation.finish()
            self.accepting.leave()
        }
        return connections
    }

    /// Stops accepting: ``connections()`` ends.
    package func stop() {
        wakeup.wake()
    }

    /// Stops accepting, waits for the accepting loop to end, closes the socket and removes its file.
    package func close() async {
        stop()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            accepting.notify(queue: DispatchQueue.global()) {
                Glibc.close(self.descriptor)
                unlink(self.path)
                done.resume()
            }
        }
    }
}
