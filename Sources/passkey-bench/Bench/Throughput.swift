/// Rates measured with the monotonic clock (latencies: ``Latencies``).
enum Throughput {
    /// Runs `body` for about `seconds` (after a short warm-up), and at least once, and returns
    /// operations per second.
    static func rate(seconds: Double, _ body: () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        for _ in 0..<3 {
            try await body()
        }
        var operations = 0
        let start = clock.now
        let budget = Duration.milliseconds(Int(seconds * 1000))
        while operations == 0 || clock.now - start < budget {
            try await body()
            operations += 1
        }
        return Double(operations) / (clock.now - start).seconds
    }

    /// Measures a rate and its baseline alternately, `rounds` times each, and returns the median
    /// of each, so drift in the machine's speed touches both alike.
    static func paired(
        rounds: Int, seconds: Double, _ body: () async throws -> Void, baseline: () async throws -> Void
    ) async throws -> (value: Double, baseline: Double) {
        try await pairedRates(
            rounds: rounds, { try await rate(seconds: seconds, body) },
            baseline: { try await rate(seconds: seconds, baseline) })
    }

    /// Takes a rate and its baseline's alternately, `rounds` times each, and returns the median of
    /// each: for rates measured elsewhere (another process, as the peer's are).
    static func pairedRates(
        rounds: Int, _ value: () async throws -> Double, baseline: () async throws -> Double
    ) async throws -> (value: Double, baseline: Double) {
        var values: [Double] = []
        var baselines: [Double] = []
        for _ in 0..<rounds {
            baselines.append(try await baseline())
            values.append(try await value())
        }
        return (median(values), median(baselines))
    }

    /// Runs `clients` tasks at once for `seconds`, each calling `body` with its client number and
    /// how many times it has called it before, and at least once (a task the machine starts late
    /// still counts), and returns the calls per second of all together.
    static func concurrentRate(
        clients: Int, seconds: Double,
        _ body: @escaping @Sendable (_ client: Int, _ iteration: Int) async throws -> Void
    ) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let end = start + .seconds(seconds)
        let count = try await withThrowingTaskGroup(of: Int.self) { group in
            for client in 0..<clients {
                group.addTask {
                    var done = 0
                    while done == 0 || clock.now < end {
                        try await body(client, done)
                        done += 1
                    }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(count) / (clock.now - start).seconds
    }

    /// For each K of `clients`, a rate and its baseline, each run by K concurrent clients for
    /// `seconds`, measured alternately `rounds` times (the medians kept): client k's n-th call is of
    /// user k + n·K modulo `users` (a multiple of K), so no two clients act for one user at once.
    ///
    /// - Returns: per K, the rate and the baseline.
    static func pairedUserRates(
        users: Int, clients: [Int], seconds: Double, rounds: Int,
        _ body: @escaping @Sendable (_ user: Int) async throws -> Void,
        baseline: @escaping @Sendable (_ user: Int) async throws -> Void
    ) async throws -> [(clients: Int, value: Double, baseline: Double)] {
        var rates: [(clients: Int, value: Double, baseline: Double)] = []
        for clients in clients {
            let turns = users / clients
            let user = { @Sendable (client: Int, iteration: Int) in client + clients * (iteration % turns) }
            let (value, base) = try await pairedRates(
                rounds: rounds,
                { try await concurrentRate(clients: clients, seconds: seconds) { try await body(user($0, $1)) } },
                baseline: {
                    try await concurrentRate(clients: clients, seconds: seconds) { try await baseline(user($0, $1)) }
                })
            rates.append((clients, value, base))
        }
        return rates
    }

    private static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
