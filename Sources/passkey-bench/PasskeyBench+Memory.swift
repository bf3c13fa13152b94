import ArgumentParser

extension PasskeyBench {
    /// `passkey-bench memory`: ``ServerMemory``'s figures.
    struct MemoryBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "memory",
            abstract: "Resident memory of passkey serve with N authenticators and of tenant serve under a login load.",
            discussion: """
                Starts the passkey built beside this executable: passkey serve, to which --authenticators virtual \
                authenticators are added through its HTTP API; then passkey tenant serve on a SQLite database of \
                --users users (seeded through the tenant's bulk import), logged in --logins times over HTTP by K \
                clients. Each figure is read from /proc/PID/status (VmRSS, VmHWM).
                """)

        @Option(help: "Authenticators passkey serve holds.")
        var authenticators = 1000

        @Option(help: "Users of the tenant.")
        var users = 10_000

        @Option(help: "Logins of the load.")
        var logins = 4000

        @Option(help: "Concurrent clients of the load (K).")
        var clients = 8

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            guard authenticators > 0, users > 0, logins > 0, clients > 0 else {
                throw ValidationError("--authenticators, --users, --logins and --clients are positive.")
            }
        }

        func run() async throws {
            let figures = try await ServerMemory(
                authenticators: authenticators, users: users, logins: logins, clients: clients
            ).figures(progress: BenchOutput.progress)
            try BenchOutput.write(figures, json: json, lines: figures.map(\.line))
        }
    }
}
