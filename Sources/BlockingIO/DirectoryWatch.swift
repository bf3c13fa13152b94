import Glibc
import SystemPackage

/// The changes to the entries of one open directory, as the kernel reports them (inotify(7)),
/// read without ever waiting: how a cache of the files read from a directory tells, with no
/// `stat` per file, which of them are still as read.
///
/// The kernel queues an event inside the call that makes a change, before that call returns,
/// whichever process makes it (a write in place, a `chmod`, a rename over a file, an unlink), so
/// once ``drain(_:)`` has read the queue to its end, every change finished before it began has
/// been reported. The descriptor is non-blocking (`IN_NONBLOCK`): reading it until `EAGAIN` never
/// waits, where `fstatat` may read the disk. ``drain(_:)`` is the one call of this module that
/// may be made on the concurrency pool; opening the watch resolves a path, so make it on a
/// ``BlockingExecutor`` like every ``OpenFile`` call.
///
/// What inotify(7) does not report, this does not either: writes through `mmap`, changes to a
/// file made through a hard link in another directory, changes made by another host to a network
/// filesystem.
///
/// Not `Sendable`: the events must be applied in the order they are drained, so the watch lives
/// behind its owner's one lock. The descriptor is closed when the watch is released, which ends
/// the watch (STYLE §2).
package final class DirectoryWatch<Failure: SystemCallFailure> {
    /// What one event says changed.
    package enum Change: Equatable, Sendable {
        /// The entry with this name was created, written, closed after writing, had its
        /// attributes changed, was renamed from or to, or was removed.
        case entry(String)
        /// Any entry may have changed: events were lost (`IN_Q_OVERFLOW`), the directory was
        /// moved (`IN_MOVE_SELF`), or something happened to the directory itself.
        case any
        /// The watch is over (`IN_IGNORED`: the directory was removed, or its filesystem
        /// unmounted): no change will be reported again.
        case ended
    }

    /// What is watched: every change to an entry, and the directory itself moving or going.
    private static var events: UInt32 {
        UInt32(
            IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
                | IN_DELETE_SELF | IN_MOVE_SELF)
    }
    /// The fixed part of an event (`struct inotify_event` without its name).
    private static var headerSize: Int { MemoryLayout<inotify_event>.size }

    private let descriptor: Int32
    /// The directory's path, for errors.
    package let path: String

    /// Starts watching an open directory (`inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`, then
    /// `inotify_add_watch` on `/proc/self/fd/N`, the directory that is open rather than whatever
    /// its path names now).
    ///
    /// - Parameter directory: the open directory.
    /// - Throws: `Failure`, from the system's error: `EMFILE` past `max_user_instances`, `ENOSPC`
    ///   past `max_user_watches`, `ENOENT` without `/proc`.
    package init(_ directory: OpenFile<Failure>) throws(Failure) {
        path = directory.path
        let opened: Int32
        switch SystemCall.retrying({ inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }) {
        case .success(let value): opened = value
        case .failure(let errno): throw Failure(SystemCallError("inotify_init1", path, errno))
        }
        let watched = "/proc/self/fd/\(directory.rawDescriptor)"
        if case .failure(let errno) = SystemCall.retrying({
            inotify_add_watch(opened, watched, Self.events | UInt32(IN_ONLYDIR))
        }) {
            Glibc.close(opened)
            throw Failure(SystemCallError("inotify_add_watch", path, errno))
        }
        descriptor = opened
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Reads every event queued, in order, until the queue is empty (`EAGAIN`); never waits.
    ///
    /// - Parameter report: called with each change, in the order the kernel queued them.
    /// - Throws: `Failure`, from the system's error of `read`; the events reported before it
    ///   stand, those after it are lost.
    package func drain(_ report: (Change) -> Void) throws(Failure) {
        // Enough for at least one event with the longest name (inotify(7)).
        let capacity = 16 * (Self.headerSize + Int(NAME_MAX) + 1)
        let failure = withUnsafeTemporaryAllocation(
            byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment
        ) { buffer -> Errno? in
            while true {
                switch SystemCall.retrying({ Glibc.read(descriptor, buffer.baseAddress, capacity) }) {
                case .failure(let errno) where errno == .resourceTemporarilyUnavailable: return nil
                case .failure(let errno): return errno
                case .success(0): return nil
                case .success(let count): Self.parse(UnsafeRawBufferPointer(rebasing: buffer[..<count]), report)
                }
            }
        }
        if let failure {
            throw Failure(SystemCallError("read", path, failure))
        }
    }

    /// Reports the events of one `read`: each a `struct inotify_event`, then `len` bytes of its
    /// name padded with NULs.
    private static func parse(_ events: UnsafeRawBufferPointer, _ report: (Change) -> Void) {
        var offset = 0
        while offset + headerSize <= events.count {
            let event = events.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            let nameStart = offset + headerSize
            offset = nameStart + Int(event.len)
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                report(.any)
            } else if event.mask & UInt32(IN_IGNORED) != 0 {
                report(.ended)
            } else if event.len > 0, offset <= events.count {
                let name = events[nameStart..<offset].prefix { $0 != 0 }
                report(.entry(String(decoding: name, as: UTF8.self)))
            } else {
                report(.any)
            }
        }
    }
}
