import ArgumentParser
import Foundation
import PasskeyTenant

extension PasskeyBench {
    /// `passkey-bench growth`: how costs grow with size (issue 46), as ``GrowthPoint``s that
    /// `Tools/plot_growth.py` draws: the file store at 10^3 to 10^6 passkeys (``StoreGrowth``), and
    /// the tenant at 10^3 to 10^6 users on SQLite and PostgreSQL (``TenantGrowth``).
    struct GrowthBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "growth",
            abstract: "Measure how costs grow with the size of the store (and of the tenant).",
            discussion: "Stores are made once through the bulk import and kept in --cache; the 10^6 store takes "
                + "about 4 GB and some minutes to make. Build with -c release for real figures.")

        /// What grows.
        enum Group: String, ExpressibleByArgument, CaseIterable {
            case store
            case tenantSQLite = "tenant-sqlite"
            case tenantPostgres = "tenant-postgres"
        }

        @Option(name: .customLong("group"), help: "What grows (repeatable; default: every group available).")
        var groups: [Group] = []

        @Option(parsing: .upToNextOption, help: "The sizes to measure at: passkeys, or users.")
        var sizes: [Int] = [1000, 10000, 100_000, 1_000_000]

        @Option(help: "Seconds per rate.")
        var seconds: Double = 1

        @Option(help: "Where made stores are kept between runs (default ~/.cache/softpasskey/growth).")
        var cache: String?

        @Option(
            help:
                "A PostgreSQL server (postgres://…) for tenant-postgres: the run makes a database there, then drops it."
        )
        var db: String?

        @Option(help: "Tenant logins measured at each size.")
        var logins = 4000

        @Flag(help: "Print the points as JSON.")
        var json = false

        @Option(help: "Also write the points as JSON to this file.")
        var out: String?

        func validate() throws {
            guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }), seconds > 0, logins > 0 else {
                throw ValidationError("--sizes must be positive and given, --seconds and --logins positive")
            }
            if let db, !PostgresURL.isPostgres(db) {
                throw ValidationError("--db is a postgres:// or postgresql:// URL.")
            }
        }

        func run() async throws {
            let progress: (String) -> Void = BenchOutput.progress
            var points: [GrowthPoint] = []
            for group in groups.isEmpty ? Group.allCases : groups {
                switch group {
                case .store:
                    points += try await StoreGrowth(
                        sizes: sizes.sorted(), cache: cache ?? LargeStore.cache, seconds: seconds
                    ).points(progress: progress)
                case .tenantSQLite, .tenantPostgres:
                    var growth = TenantGrowth(database: db, groups: [group.rawValue])
                    growth.logins = logins
                    points += try await growth.points(sizes: sizes.sorted(), progress: progress)
                }
            }
            if let out {
                try BenchOutput.encoded(points).write(to: URL(fileURLWithPath: out))
            }
            try BenchOutput.write(points, json: json, lines: points.map(Self.line))
        }

        /// One point as a line: size, group, series, value and unit.
        static func line(_ point: GrowthPoint) -> String {
            let value = point.value >= 100 ? String(format: "%.0f", point.value) : String(format: "%.3g", point.value)
            return "\(point.size)\t\(point.group)\t\(point.series)\t\(value) \(point.unit)\t\(point.label)"
        }
    }
}
