import Glibc

/// What this package needs to know of a file's `stat`.
package struct FileStatus: Sendable {
    /// The size in bytes.
    package var size: Int
    /// The permission bits (`st_mode & 0o7777`).
    package var permissions: UInt32
    /// The owner's user ID.
    package var owner: UInt32
    /// The last change of the content, or of a directory's entries (`st_mtim`), in nanoseconds
    /// since 1970.
    package var modified: Int64
    /// The inode number (`st_ino`): a file replaced by rename has another.
    package var inode: UInt64
    /// The last change of the content or the inode (`st_ctim`), in nanoseconds since 1970; no
    /// call sets it back.
    package var changed: Int64

    init(_ info: stat) {
        size = Int(info.st_size)
        permissions = UInt32(info.st_mode) & 0o7777
        owner = info.st_uid
        modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        inode = UInt64(info.st_ino)
        changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
    }
}
