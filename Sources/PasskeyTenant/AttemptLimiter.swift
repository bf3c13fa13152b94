import FoundationEssentials

/// Counts failed attempts per user and per client address, and locks a key out once it reaches its
/// limit within the window (Auth0's brute-force protection, answered as `too_many_attempts`).
///
/// The failures are kept in the store (`attempt_failures`), not in the process, so that every
/// tenant instance on one database counts every instance's failures, and a restart forgets none.
/// A check is one read, a failure one write transaction (which also forgets the failures older
/// than the window); an empty list of keys costs nothing. Time comes from the injected clock
/// (STYLE §4).
struct AttemptLimiter: Sendable {
    /// What a failure is counted against.
    enum Key: Hashable, Sendable {
        case user(String)
        case address(String)

        /// The key as the store keeps it: `user:<user id>` or `address:<client address>`.
        var storageKey: String {
            switch self {
            case .user(let id): "user:\(id)"
            case .address(let address): "address:\(address)"
            }
        }
    }

    private let limits: AttemptLimits
    private let clock: TenantClock
    private let store: any TenantStore

    init(limits: AttemptLimits, clock: TenantClock, store: any TenantStore) {
        self.limits = limits
        self.clock = clock
        self.store = store
    }

    /// Seconds until the first locked-out key among `keys` may try again, or nil when none is.
    ///
    /// - Throws: the store's errors.
    func retryAfter(_ keys: [Key]) async throws(TenantError) -> Int? {
        guard !keys.isEmpty else { return nil }
        let now = clock.now()
        let windows = try await store.failures(of: keys.map(\.storageKey), since: since(now))
        return retryAfter(keys, windows: windows, at: now)
    }

    /// The start of the window of a check at `now`: the failures at or after it count.
    ///
    /// A failure counts while it is younger than the window: one exactly `window` old is out, so a
    /// client that waits the `Retry-After` it was given is let in. The store's bound is inclusive;
    /// a millisecond keeps the boundary clear of the rounding of stored instants.
    func since(_ now: Date) -> Date {
        now.addingTimeInterval(-window + 0.001)
    }

    /// Seconds until the first locked-out key among `keys` may try again at `now`, or nil when
    /// none is, from the failures the store counted since ``since(_:)`` of `now`, by storage key.
    func retryAfter(_ keys: [Key], windows: [String: FailureWindow], at now: Date) -> Int? {
        var wait: Int?
        for key in keys {
            guard let recent = windows[key.storageKey], recent.count >= limit(for: key) else { continue }
            let seconds = Int((recent.oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up))
            wait = max(wait ?? 0, max(seconds, 1))
        }
        return wait
    }

    /// Counts one failure against each of `keys`.
    ///
    /// - Throws: the store's errors.
    func recordFailure(_ keys: [Key]) async throws(TenantError) {
        guard !keys.isEmpty else { return }
        let now = clock.now()
        try await store.recordFailure(
            of: keys.map(\.storageKey), at: now, forgetBefore: now.addingTimeInterval(-window))
    }

    private var window: Double { limits.window.seconds }

    private func limit(for key: Key) -> Int {
        switch key {
        case .user: limits.perUser
        case .address: limits.perAddress
        }
    }
}
