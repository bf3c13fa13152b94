import BlockingIO
import FoundationEssentials
import WebAuthn

/// The lock and the index journal: every read under the shared lock, every change under the
/// exclusive one and recorded in `index.log`, and the index kept up to date with the directory.
extension FileCredentialStore {

    /// Runs `body` under the shared lock.
    func reading<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try files.lock.lock(exclusive: false, timeout: lockTimeout)
        defer { files.lock.unlock() }
        return try body()
    }

    /// Runs a change under the exclusive lock, then records it in the index journal.
    ///
    /// The generation is counted before `body` runs, so a writer killed mid-change leaves
    /// `.lock` saying the journal is behind, and the next reader checks it against the directory.
    /// After `body`, the change's record is appended (or, when the journal needs it,
    /// the journal is rewritten whole) and only then is the generation marked indexed. Failing to
    /// write the journal does not fail the change, which is committed in its file: it leaves the
    /// journal marked behind, which costs the next reader a check against the directory.
    func changing<T>(_ body: () throws(StoreError) -> (T, Change)) throws(StoreError) -> T {
        try files.lock.lock(exclusive: true, timeout: lockTimeout)
        defer { files.lock.unlock() }
        let before = try files.observe()
        let rewrite = !before.isConsistent || before.journalNeedsCompaction
        if index != nil || rewrite {
            try refreshIndex(before)
        }
        var lock = before.lock
        lock.generation &+= 1
        try files.lock.writeUInt64(lock.generation, at: 0)
        let (result, change): (T, Change)
        do {
            (result, change) = try body()
        } catch {
            abandon(before, generation: lock.generation)
            throw error
        }
        for record in change.records {
            index?.apply(record)
        }
        do {
            if rewrite || index?.needsRewrite == true, var index {
                self.index = nil  // keeps `index` uniquely referenced, so it is not copied
                defer { self.index = index }
                try files.rewriteJournal(&index, lock: &lock)
            } else {
                try files.append(change, lock: &lock)
                index?.journalLength = Int(lock.journalLength)
            }
            observed = try files.recordIndexed(lock)
        } catch {
            observed = nil
        }
        return result
    }

    /// After a change failed: when the credentials directory is as it was, the journal still
    /// describes it, so mark the new generation indexed; otherwise leave it for the next reader
    /// to check.
    private func abandon(_ before: Observation, generation: UInt64) {
        var lock = before.lock
        lock.generation = generation
        if before.isConsistent, let now = try? files.observe(), now.credentialsModified == before.credentialsModified,
            let recorded = try? files.recordIndexed(lock)
        {
            observed = index == nil ? nil : recorded
        } else {
            index = nil
            observed = nil
        }
    }

    /// Brings ``index`` up to date with the store, reading as little as it can: nothing when the
    /// store is as last seen; the journal's new records when another instance appended some; the
    /// whole journal when it was rewritten; and, when the journal does not describe the directory,
    /// a check against the directory listing.
    ///
    /// - Parameter observation: the store as just observed under the lock, if the caller has it.
    func refreshIndex(_ observation: Observation? = nil) throws(StoreError) {
        let now: Observation
        if let observation {
            now = observation
        } else {
            now = try files.observe()
        }
        if index != nil, now == observed {
            return
        }
        var current = index ?? Index()
        index = nil  // keeps `current` uniquely referenced, so it is not copied
        if try !files.readTail(into: &current) {
            current = try files.readJournal()
        }
        if !now.isConsistent || current.needsRewrite {
            try files.reconcile(&current)
        }
        index = current
        observed = now
    }

    /// Called by `init` under the exclusive lock: when the journal does not describe the
    /// directory, removes killed writers' temporary files, rebuilds the index and rewrites the
    /// journal, so that the processes that open the store next need not. A journal that cannot be
    /// written is left for the next change.
    static func repairIndex(_ files: Files) throws(StoreError) -> (Index?, Observation?) {
        guard !(try files.observe().isConsistent) else {
            return (nil, nil)
        }
        // Only a writer killed mid-change leaves a temporary file among the credentials, and it
        // leaves the journal marked behind; so the (long) listing is read only then.
        try removeTemporaryFiles(in: files.credentials)
        let observation = try files.observe()
        var index = try files.readJournal()
        try files.reconcile(&index)
        var lock = observation.lock
        do {
            try files.rewriteJournal(&index, lock: &lock)
            return (index, try files.recordIndexed(lock))
        } catch {
            return (index, nil)
        }
    }
}
