import Glibc
import Synchronization
import SystemPackage

/// What one inotify event says changed in a watched directory (``DirectoryWatch``).
package enum DirectoryChange: Equatable, Sendable {
    /// The entry with this name was created, written, closed after writing, had its attributes
    /// changed, was renamed from or to, or was removed.
    case entry(String)
    /// Any entry may have changed: events were lost (`IN_Q_OVERFLOW`), the directory was moved
    /// (`IN_MOVE_SELF`), or something happened to the directory itself.
    case any
    /// The watch is over (`IN_IGNORED`: the directory was removed, or its filesystem unmounted):
    /// no change will be reported again.
    case ended
}

/// The process's one inotify instance (inotify(7)), shared by every ``DirectoryWatch``: an
/// instance counts against the user's `max_user_instances` (128 by default, for all of the
/// user's processes together), a watch only against `max_user_watches` (far more), so a process
/// with many stores open, a test run, takes one instance, not one per store.
///
/// Whoever drains reads the queue to its end and files each event under every watch of its
/// directory (one directory watched twice has one watch descriptor), where that watch's owner
/// takes it at its own next drain. The descriptor is opened `IN_NONBLOCK | IN_CLOEXEC` with the
/// first watch and closed with the last.
///
/// `Sendable`: all of it is behind one mutex, never held across a call that waits.
final class InotifyQueue: Sendable {
    /// The process's instance.
    static let shared = InotifyQueue()

    /// Changes kept for a watch whose owner has not drained; past this, one ``DirectoryChange/any``.
    private static let pendingLimit = 1024

    private struct State {
        /// The instance, or -1 while no watch is open.
        var descriptor: Int32 = -1
        /// The watches of each watch descriptor.
        var watches: [Int32: [UInt64]] = [:]
        /// Each watch's watch descriptor (`nil` once the kernel ended it) and the changes not yet
        /// taken.
        var pending: [UInt64: (watch: Int32?, changes: [DirectoryChange])] = [:]
        var lastID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Watches the directory `watched` names (`inotify_add_watch` with `IN_ONLYDIR`), opening the
    /// instance first if no watch has.
    ///
    /// - Parameters:
    ///   - watched: the path given to `inotify_add_watch`.
    ///   - events: the events to watch.
    ///   - path: the directory's path, for errors.
    /// - Returns: the watch's number, or the failed call.
    func add(_ watched: String, events: UInt32, path: String) -> Result<UInt64, SystemCallError> {
        state.withLock { state in
            if state.descriptor < 0 {
                switch SystemCall.retrying({ inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }) {
                case .success(let opened): state.descriptor = opened
                case .failure(let errno): return .failure(SystemCallError("inotify_init1", path, errno))
                }
            }
            let descriptor = state.descriptor
            switch SystemCall.retrying({ inotify_add_watch(descriptor, watched, events | UInt32(IN_ONLYDIR)) }) {
            case .failure(let errno):
                Self.closeIfUnused(&state)
                return .failure(SystemCallError("inotify_add_watch", path, errno))
            case .success(let watch):
                state.lastID += 1
                state.watches[watch, default: []].append(state.lastID)
                state.pending[state.lastID] = (watch, [])
                return .success(state.lastID)
            }
        }
    }

    /// Ends a watch (`inotify_rm_watch` when no other watches its directory; `close` with the
    /// last watch).
    func remove(_ id: UInt64) {
        state.withLock { state in
            guard let watch = state.pending.removeValue(forKey: id)?.watch else {
                Self.closeIfUnused(&state)
                return
            }
            state.watches[watch]?.removeAll { $0 == id }
            if state.watches[watch]?.isEmpty == true {
                state.watches[watch] = nil
                _ = inotify_rm_watch(state.descriptor, watch)
            }
            Self.closeIfUnused(&state)
        }
    }

    /// Reads every event queued until the queue is empty (`EAGAIN`), never waiting, and takes the
    /// changes filed for the watch `id`, in the order the kernel queued them.
    ///
    /// - Returns: the changes, and the `Errno` of a failed `read` (the changes before it stand).
    func drain(_ id: UInt64) -> (changes: [DirectoryChange], failure: Errno?) {
        state.withLock { state in
            let failure = Self.read(&state)
            guard let pending = state.pending[id] else {
                return ([.ended], failure)
            }
            state.pending[id]?.changes = []
            // A watch the kernel ended says so at every drain, whatever was lost since.
            return (pending.watch == nil ? pending.changes + [.ended] : pending.changes, failure)
        }
    }

    private static func closeIfUnused(_ state: inout State) {
        if state.pending.isEmpty && state.descriptor >= 0 {
            Glibc.close(state.descriptor)
            state.descriptor = -1
            state.watches = [:]
        }
    }

    /// Reads the queue to its end, filing each event.
    private static func read(_ state: inout State) -> Errno? {
        let descriptor = state.descriptor
        guard descriptor >= 0 else {
            return nil
        }
        let headerSize = MemoryLayout<inotify_event>.size
        // Enough for several events with the longest name (inotify(7)).
        let capacity = 16 * (headerSize + Int(NAME_MAX) + 1)
        return withUnsafeTemporaryAllocation(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment) {
            buffer -> Errno? in
            while true {
                switch SystemCall.retrying({ Glibc.read(descriptor, buffer.baseAddress, capacity) }) {
                case .failure(let errno) where errno == .resourceTemporarilyUnavailable: return nil
                case .failure(let errno): return errno
                case .success(0): return nil
                case .success(let count):
                    let events = UnsafeRawBufferPointer(rebasing: buffer[..<count])
                    var offset = 0
                    while offset + headerSize <= count {
                        let event = events.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        let nameEnd = offset + headerSize + Int(event.len)
                        fileEvent(event, name: events[(offset + headerSize)..<min(nameEnd, count)], &state)
                        offset = nameEnd
                    }
                }
            }
        }
    }

    /// Files one event: a name padded with NULs follows its `struct inotify_event`.
    private static func fileEvent(_ event: inotify_event, name: Slice<UnsafeRawBufferPointer>, _ state: inout State) {
        let change: DirectoryChange
        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
            for id in state.pending.keys { state.pending[id]?.changes = [.any] }
            return
        } else if event.mask & UInt32(IN_IGNORED) != 0 {
            change = .ended
        } else if event.len > 0, name.count == Int(event.len) {
            change = .entry(String(decoding: name.prefix { $0 != 0 }, as: UTF8.self))
        } else {
            change = .any
        }
        let watches = state.watches[event.wd] ?? []
        if change == .ended {
            state.watches[event.wd] = nil
        }
        for id in watches {
            if change == .ended {
                state.pending[id]?.watch = nil
            } else if state.pending[id]?.changes.count ?? 0 >= pendingLimit {
                state.pending[id]?.changes = [.any]
                continue
            }
            state.pending[id]?.changes.append(change)
        }
    }
}
