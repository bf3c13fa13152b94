package import BlockingIO

/// The store's files and directories: the package's one file type (BlockingIO's `OpenFile`),
/// failing with ``StoreError``. Named for the store, not `FileDescriptor`, which is swift-system's
/// descriptor type (what `OpenFile` wraps).
typealias StoreFile = OpenFile<StoreError>

extension StoreError: SystemCallFailure {
    /// The error of a failed system call: the one place where the store maps `Errno`
    /// (`SystemCallError`) to its codes, with `strerror`'s text and the path involved.
    ///
    /// `ENOSPC` and `EDQUOT` are `disk-full`; a lock another process held past the timeout is
    /// `locked`; a file larger than the store reads is `corrupt`; any other failure is `io`.
    package init(_ error: SystemCallError) {
        let code: Code =
            if error.isDiskFull {
                .diskFull
            } else if error.isTimedOut {
                .locked
            } else if error.isOverLimit {
                .corrupt
            } else {
                .io
            }
        self.init(code, error.detail ?? "\(error.operation): \(error.reason)", file: error.path)
    }
}
