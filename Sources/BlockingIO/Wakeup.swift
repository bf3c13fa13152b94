import Glibc
import SystemPackage

/// A pipe polled beside a descriptor, so that a thread waiting to read it can be stopped: how
/// ``DescriptorChannel`` and ``UnixSocketListener`` interrupt their readers. Closing a descriptor
/// another thread waits on races with its reuse, and interrupting a call needs a signal handler,
/// which a library must not install.
///
/// `Sendable`: the two ends never change; the byte written is never read, so every wait after
/// ``wake()`` returns at once.
final class Wakeup: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    /// Makes the pipe, its ends closed on `exec`.
    ///
    /// - Parameter path: what the descriptor it watches is, for the error.
    /// - Throws: ``SystemCallError`` `pipe`.
    init(for path: String) throws(SystemCallError) {
        var ends: [Int32] = [-1, -1]
        if case .failure(let errno) = SystemCall.retrying({ pipe(&ends) }) {
            throw SystemCallError("pipe", path, errno)
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Ends every wait, now and later.
    func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(writeEnd, &byte, 1)
    }

    /// Waits (`poll`) until `descriptor` can be read, or is at its end or in error (its next call
    /// says which), or until ``wake()``.
    ///
    /// - Returns: `true` when `descriptor` is ready, `false` once woken, or the `Errno` of `poll`.
    func wait(for descriptor: Int32) -> Result<Bool, Errno> {
        var polled = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
        ]
        return SystemCall.retrying { poll(&polled, 2, -1) }.map { _ in polled[1].revents == 0 }
    }
}
