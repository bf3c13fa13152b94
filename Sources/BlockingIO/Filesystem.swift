/// The filesystem a file is on, told by its `f_type` (statfs(2)): only as much as deciding
/// whether a ``DirectoryWatch`` on it can be trusted.
package struct Filesystem: Equatable, Sendable {
    /// The magic number of statfs(2)'s `f_type` (linux/magic.h), in 32 bits: every magic number
    /// fits, and where `f_type` is wider it may come sign-extended.
    package let magic: UInt32

    /// The filesystem with this `f_type`.
    package init(magic: UInt32) {
        self.magic = magic
    }

    /// Filesystems whose files another host, or the server behind FUSE, can change without the
    /// local kernel's filesystem API hearing of it, so without an inotify(7) event (inotify(7):
    /// it reports only what a program does through the filesystem API, not remote events on
    /// network filesystems). Numbers from statfs(2) and linux/magic.h.
    private static let changedElsewhere: Set<UInt32> = [
        0x6969,  // NFS_SUPER_MAGIC
        0x517B,  // SMB_SUPER_MAGIC
        0xFF53_4D42,  // CIFS_SUPER_MAGIC
        0xFE53_4D42,  // SMB2_SUPER_MAGIC
        0x6573_5546,  // FUSE_SUPER_MAGIC
        0x00C3_6400,  // CEPH_SUPER_MAGIC
        0x5346_414F,  // AFS_SUPER_MAGIC
        0x6B41_4653,  // AFS_FS_MAGIC (kAFS)
        0x0102_1997,  // V9FS_MAGIC (9p)
        0x0116_1970,  // GFS2_MAGIC
        0x7461_636F,  // OCFS2_SUPER_MAGIC
        0x0BD0_0BD0,  // LL_SUPER_MAGIC (Lustre)
        0x4750_4653,  // GPFS_SUPER_MAGIC
    ]

    /// Whether inotify(7) reports every change to its files: `false` on a network or cluster
    /// filesystem (NFS, SMB/CIFS, Ceph, AFS, 9p, GFS2, OCFS2, Lustre, GPFS) and through FUSE,
    /// where a change made by another host is never reported, so a cache that trusts the watch
    /// would serve a changed file indefinitely.
    package var reportsEveryChange: Bool {
        !Self.changedElsewhere.contains(magic)
    }
}
