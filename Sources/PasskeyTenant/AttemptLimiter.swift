import FoundationEssentials

/// Counts failed attempts per user and per client address, and locks a key out once it reaches its
/// limit within the window (Auth0's brute-force protection, answered as `too_many_attempts`).
///
/// Shared mutable state, so an actor, reading time from the injected clock (STYLE §4).
actor AttemptLimiter {
    /// What a failure is counted against.
    enum Key: Hashable, Sendable {
        case user(String)
        case address(String)
    }

    private let limits: AttemptLimits
    private let clock: TenantClock
    private var failures: [Key: [Date]] = [:]

    init(limits: AttemptLimits, clock: TenantClock) {
        self.limits = limits
        self.clock = clock
    }

    /// Seconds until the first locked-out key among `keys` may try again, or nil when none is.
    func retryAfter(_ keys: [Key]) -> Int? {
        let now = clock.now()
        var wait: Int?
        for key in keys {
            let recent = prune(key, now: now)
            guard recent.count >= limit(for: key), let oldest = recent.first else { continue }
            let seconds = Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up))
            wait = max(wait ?? 0, max(seconds, 1))
        }
        return wait
    }

    /// Counts one failure against each of `keys`.
    func recordFailure(_ keys: [Key]) {
        let now = clock.now()
        if failures.count > 100_000 {
            failures = failures.filter { !$0.value.allSatisfy { now.timeIntervalSince($0) >= window } }
        }
        for key in keys {
            var recent = prune(key, now: now)
            recent.append(now)
            failures[key] = recent
        }
    }

    private var window: Double { limits.window.seconds }

    private func limit(for key: Key) -> Int {
        switch key {
        case .user: limits.perUser
        case .address: limits.perAddress
        }
    }

    /// The failures of `key` still inside the window, oldest first.
    private func prune(_ key: Key, now: Date) -> [Date] {
        let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
        failures[key] = recent.isEmpty ? nil : recent
        return recent
    }
}
