extension FileCredentialStore {
    /// What `.lock` holds besides being the `flock` target: the change count, and which state of
    /// the credentials directory `index.log` was last known to describe.
    ///
    /// ```
    /// .lock = uint64(generation)            bumped under the exclusive lock before every change
    ///         uint64(indexedGeneration)     the generation index.log is complete for
    ///         int64(credentialsModified)    credentials/'s mtime (ns) after that change
    ///         uint64(journalLength)         index.log's length after that change
    ///         uint64(journalRecords)        its record count, and
    ///         uint64(liveCredentials)       how many credentials those records leave   (little-endian)
    /// ```
    ///
    /// A writer that dies mid-change leaves `indexedGeneration` behind `generation`; a file added
    /// or removed by hand changes the directory's mtime; a torn, truncated or replaced journal has
    /// another length. Any of these makes the next reader check the journal against the directory.
    /// The file is never `fsync`ed: after a power loss it may be old, and an old state disagrees
    /// with the directory or the journal, which were.
    struct LockState: Equatable {
        var generation: UInt64 = 0
        var indexedGeneration: UInt64 = 0
        var credentialsModified: Int64 = 0
        var journalLength: UInt64 = 0
        var journalRecords: UInt64 = 0
        var liveCredentials: UInt64 = 0

        /// The bytes `.lock` reserves, so that recording the index never needs a new block.
        static let byteCount = 48

        init() {}

        /// Reads the state from `.lock`'s bytes; missing bytes (an older or new store) read as 0.
        init(_ bytes: [UInt8]) {
            let words = (0..<6).map { word in
                (0..<8).reduce(UInt64(0)) { value, byte in
                    let position = word * 8 + byte
                    return value | UInt64(position < bytes.count ? bytes[position] : 0) << (byte * 8)
                }
            }
            generation = words[0]
            indexedGeneration = words[1]
            credentialsModified = Int64(bitPattern: words[2])
            journalLength = words[3]
            journalRecords = words[4]
            liveCredentials = words[5]
        }

        /// Every field after the generation: what a writer records once its change is in the journal.
        var indexBytes: [UInt8] {
            [
                indexedGeneration, UInt64(bitPattern: credentialsModified), journalLength, journalRecords,
                liveCredentials,
            ]
            .flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } }
        }
    }

    /// The store as seen at one instant under the lock: `.lock`, the credentials directory's
    /// mtime, and the journal's length (`nil` when there is none).
    struct Observation: Equatable, Sendable {
        var lock: LockState
        var credentialsModified: Int64
        var journalLength: Int?

        /// Whether `index.log` describes the credentials directory as it is, so that reading it
        /// is enough.
        var isConsistent: Bool {
            lock.indexedGeneration == lock.generation && lock.credentialsModified == credentialsModified
                && journalLength.map(UInt64.init) == lock.journalLength
                && (journalLength ?? 0) >= IndexJournal.headerLength
        }

        /// Whether the journal has grown well past the credentials it describes, so that the next
        /// change should rewrite it: more than twice as many records as live credentials, plus
        /// some slack so a small store is not rewritten on every delete.
        var journalNeedsCompaction: Bool {
            lock.journalRecords > 2 * lock.liveCredentials + 64
        }
    }
}
