import Glibc
import SystemPackage

/// The changes to the entries of one open directory, as the kernel reports them (inotify(7)),
/// read without ever waiting: how a cache of the files read from a directory tells, with no
/// `stat` per file, which of them are still as read.
///
/// The kernel queues an event inside the call that makes a change, before that call returns,
/// whichever process makes it (a write in place, a `chmod`, a rename over a file, an unlink), so
/// once ``drain(_:)`` has read the queue to its end, every change finished before it began has
/// been reported. The queue is the process's one inotify instance (`InotifyQueue`), opened
/// `IN_NONBLOCK`: reading it until `EAGAIN` never waits, where `fstatat` may read the disk.
/// ``drain(_:)`` is the one call of this module that may be made on the concurrency pool;
/// opening the watch resolves a path, so make it on a ``BlockingExecutor`` like every
/// ``OpenFile`` call.
///
/// What inotify(7) does not report, this does not either: writes through `mmap`, changes to a
/// file made through a hard link in another directory, changes made by another host to a network
/// filesystem or behind FUSE: ask ``OpenFile/filesystem()`` first whether the directory's
/// filesystem ``Filesystem/reportsEveryChange``.
///
/// The watch ends when it is released (`inotify_rm_watch`; the instance is closed with the
/// process's last watch: STYLE §2). `Sendable`: the shared queue is behind its mutex; apply the
/// changes in the order they are drained, behind the owner's one lock.
package final class DirectoryWatch<Failure: SystemCallFailure>: Sendable {
    /// What one event says changed.
    package typealias Change = DirectoryChange

    /// What is watched: every change to an entry, and the directory itself moving or going.
    private static var events: UInt32 {
        UInt32(
            IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
                | IN_DELETE_SELF | IN_MOVE_SELF)
    }

    private let id: UInt64
    /// The directory's path, for errors.
    package let path: String

    /// Starts watching an open directory (`inotify_add_watch` on `/proc/self/fd/N`, the directory
    /// that is open rather than whatever its path names now).
    ///
    /// - Parameter directory: the open directory.
    /// - Throws: `Failure`, from the system's error: `EMFILE` past `max_user_instances` (when the
    ///   process has no watch yet), `ENOSPC` past `max_user_watches`, `ENOENT` without `/proc`.
    package init(_ directory: OpenFile<Failure>) throws(Failure) {
        path = directory.path
        let added = InotifyQueue.shared.add(
            "/proc/self/fd/\(directory.rawDescriptor)", events: Self.events, path: directory.path)
        switch added {
        case .success(let id): self.id = id
        case .failure(let error): throw Failure(error)
        }
    }

    deinit {
        InotifyQueue.shared.remove(id)
    }

    /// Reads every event queued until none is left (`EAGAIN`); never waits.
    ///
    /// - Parameter report: called with each change to this directory, in the order the kernel
    ///   queued them.
    /// - Throws: `Failure`, from the system's error of `read`; the changes reported before it
    ///   stand, those after it are lost.
    package func drain(_ report: (Change) -> Void) throws(Failure) {
        let (changes, failure) = InotifyQueue.shared.drain(id)
        changes.forEach(report)
        if let failure {
            throw Failure(SystemCallError("read", path, failure))
        }
    }
}
