import BlockingIO
import WebAuthn

/// The credentials at hand: those this instance read whose files no event has reported changed
/// since (``RecentReads``: an inotify watch on `credentials/`, drained without waiting, so the
/// caller's thread makes no call that can block, as BlockingIO's contract asks of the pool).
extension FileCredentialStore: ImmediateCredentialReads {
    nonisolated func credentialsNow(ids: [[UInt8]]) -> [StoredCredential]? {
        // An ID that has no file name belongs to no credential.
        recentReads.credentialsNow(ids.compactMap(Self.fileName))
    }

    /// Listing needs the index, which lives on the store's executor.
    nonisolated func discoverableCredentialsNow(rpID: String) -> [StoredCredential]? {
        nil
    }

    nonisolated var sealedKeysNow: SealedKeys? { custody == nil ? keys : nil }
}
