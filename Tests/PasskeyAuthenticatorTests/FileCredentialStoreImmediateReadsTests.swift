import BlockingIO
import Foundation
import TestSupport
import Testing
import WebAuthn

@testable import PasskeyAuthenticator

/// A file store's credentials at hand (`credentialsNow`, what a plain `get` signs with without a
/// hop to the store's executor): served while no change to their files was reported, never
/// after one, whoever made it. The inotify events are queued by the changing call itself, so
/// none of these waits.
@Suite(.temporaryDirectory) struct FileCredentialStoreImmediateReadsTests {
    @Test func aCredentialReadIsAtHandUntilItsFileChanges() async throws {
        let (_, store, credential) = try await fileStoreWithACredential()
        #expect(store.credentialsNow(ids: [credential.id]) == nil, "not read yet")
        #expect(try await store.credential(id: credential.id) == credential)
        #expect(store.credentialsNow(ids: [credential.id]) == [credential])
        #expect(store.credentialsNow(ids: [credential.id]) == [credential])

        // Another credential's file changing leaves this one at hand.
        try await store.add(try await makeCredential(in: store))
        #expect(store.credentialsNow(ids: [credential.id]) == [credential])
        #expect(store.credentialsNow(ids: [[0x01], credential.id]) == nil, "one not at hand")
    }

    @Test func aHandEditInPlaceIsSeen() async throws {
        let (path, store, credential) = try await fileStoreWithACredential()
        #expect(try await store.credential(id: credential.id) == credential)
        // The same bytes written over themselves: same inode, same size, same content.
        let file = credentialFile(credential.id, store: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.write(contentsOf: bytes)
        try handle.close()
        #expect(store.credentialsNow(ids: [credential.id]) == nil)

        #expect(try await store.credential(id: credential.id) == credential)
        #expect(store.credentialsNow(ids: [credential.id]) == [credential])
    }

    @Test func aFileRemovedByHandIsSeen() async throws {
        let (path, store, credential) = try await fileStoreWithACredential()
        #expect(try await store.credential(id: credential.id) == credential)
        try FileManager.default.removeItem(atPath: credentialFile(credential.id, store: path))
        #expect(store.credentialsNow(ids: [credential.id]) == nil)
        #expect(try await store.credential(id: credential.id) == nil)
    }

    @Test func aChangeByAnotherInstanceIsSeen() async throws {
        let (path, store, credential) = try await fileStoreWithACredential()
        #expect(try await store.credential(id: credential.id) == credential)
        let other = try await FileCredentialStore(directory: path)
        #expect(try await other.incrementCounter(id: credential.id) == 1)
        #expect(store.credentialsNow(ids: [credential.id]) == nil)

        #expect(try await store.credential(id: credential.id)?.signCount == 1)
        #expect(store.credentialsNow(ids: [credential.id])?.first?.signCount == 1)
        try await other.delete(id: credential.id)
        #expect(store.credentialsNow(ids: [credential.id]) == nil)
    }

    /// One inotify instance serves every store of the process (an instance counts against the
    /// user's `max_user_instances`, 128 by default): more stores than that all watch, two on one
    /// directory share its watch, and one released leaves the others watching.
    @Test func storesShareTheProcesssInotifyInstance() async throws {
        let (path, store, credential) = try await fileStoreWithACredential()
        var others: [FileCredentialStore] = []
        for _ in 0..<130 {
            let other = try await FileCredentialStore(directory: path)
            #expect(try await other.credential(id: credential.id) == credential)
            others.append(other)
        }
        #expect(others.allSatisfy { $0.credentialsNow(ids: [credential.id]) == [credential] })
        #expect(try await store.credential(id: credential.id) == credential)
        others.removeAll()

        let elsewhere = try TemporaryDirectory.current.appending("elsewhere")
        let another = try await FileCredentialStore(directory: elsewhere)
        let itsCredential = try await makeCredential(in: another)
        try await another.add(itsCredential)
        #expect(try await another.credential(id: itsCredential.id) == itsCredential)
        _ = try await another.incrementCounter(id: itsCredential.id)
        #expect(another.credentialsNow(ids: [itsCredential.id]) == nil)
        #expect(store.credentialsNow(ids: [credential.id]) == [credential], "another directory's change")

        try FileManager.default.removeItem(atPath: credentialFile(credential.id, store: path))
        #expect(store.credentialsNow(ids: [credential.id]) == nil)
    }

    /// The system's limits refusing a watch (`EMFILE`, `ENOSPC`): nothing is at hand, and the
    /// store's executor still answers.
    @Test func withoutAWatchNothingIsAtHand() async throws {
        let (path, _, credential) = try await fileStoreWithACredential()
        let store = try await FileCredentialStore(directory: path, watchingChanges: false)
        #expect(try await store.credential(id: credential.id) == credential)
        #expect(try await store.credential(id: credential.id) == credential)
        #expect(store.credentialsNow(ids: [credential.id]) == nil)
    }

    /// On a local filesystem (the test's temporary directory) the store watches: a drain with
    /// nothing asked answers, where a store without a watch answers `nil`.
    @Test func aStoreOnALocalFilesystemWatches() async throws {
        let (path, store, _) = try await fileStoreWithACredential()
        #expect(try store.files.credentials.filesystem().reportsEveryChange)
        #expect(store.recentReads.credentialsNow([]) == [])
        let unwatched = try await FileCredentialStore(directory: path, watchingChanges: false)
        #expect(unwatched.recentReads.credentialsNow([]) == nil)
    }

    /// statfs(2)'s `f_type` (linux/magic.h) of the network and cluster filesystems and of FUSE,
    /// where inotify(7) misses a change made elsewhere, so the store opens no watch; and of local
    /// ones, which keep it.
    static let filesystems: [(magic: UInt32, reportsEveryChange: Bool, name: String)] = [
        (0x6969, false, "NFS"), (0x517B, false, "SMB"), (0xFF53_4D42, false, "CIFS"), (0xFE53_4D42, false, "SMB2"),
        (0x6573_5546, false, "FUSE"), (0x00C3_6400, false, "Ceph"), (0x5346_414F, false, "AFS"),
        (0x6B41_4653, false, "kAFS"), (0x0102_1997, false, "9p"), (0x0116_1970, false, "GFS2"),
        (0x7461_636F, false, "OCFS2"), (0x0BD0_0BD0, false, "Lustre"), (0x4750_4653, false, "GPFS"),
        (0xEF53, true, "ext4"), (0x5846_5342, true, "XFS"), (0x9123_683E, true, "Btrfs"),
        (0x0102_1994, true, "tmpfs"), (0x794C_7630, true, "overlayfs"), (0x2FC1_2FC1, true, "ZFS"),
        (0xF2F5_2010, true, "F2FS"),
    ]

    @Test(arguments: filesystems)
    func whetherInotifyReportsEveryChange(on filesystem: (magic: UInt32, reportsEveryChange: Bool, name: String)) {
        #expect(
            Filesystem(magic: filesystem.magic).reportsEveryChange == filesystem.reportsEveryChange,
            "\(filesystem.name)")
    }

    /// A read on the executor takes a mark before its `fstatat`; a change reported after the
    /// mark, even one drained by another caller before the read is kept, keeps it from being
    /// kept.
    @Test func aReadRacedByAChangeIsNotKept() async throws {
        let (path, store, credential) = try await fileStoreWithACredential()
        let name = try #require(FileCredentialStore.fileName(credential.id))
        let reads = store.recentReads
        let identity = RecentReads.FileIdentity(try #require(try store.files.credentials.status(of: name)))

        let before = reads.mark()
        let file = credentialFile(credential.id, store: path)
        try Data(contentsOf: URL(fileURLWithPath: file)).write(to: URL(fileURLWithPath: file))
        #expect(reads.credentialsNow([]) == [], "drains the change")
        reads.remember(credential, readFrom: name, file: identity, since: before)
        #expect(reads.credentialsNow([name]) == nil)

        reads.remember(credential, readFrom: name, file: identity, since: reads.mark())
        #expect(reads.credentialsNow([name]) == [credential])
    }
}
