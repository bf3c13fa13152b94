import ArgumentParser
import Foundation
import PasskeyTenant

extension PasskeyBench {
    /// `passkey-bench growth`: how costs grow with the store's passkeys and the tenant's users
    /// (issue 46), as ``GrowthPoint``s. A minimal version with the tenant's groups; helper grow's
    /// version (the store's group, the plot) is the one the lead keeps.
    struct GrowthBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "growth",
            abstract: "How costs grow with the store's passkeys and the tenant's users, at each size.")

        @Option(name: .customLong("group"), help: "tenant-sqlite or tenant-postgres (repeatable); all by default.")
        var groups: [String] = []

        @Option(parsing: .upToNextOption, help: "The sizes: users in the tenant.")
        var sizes: [Int] = [1000, 10_000, 100_000, 1_000_000]

        @Option(
            help:
                "A PostgreSQL server (postgres://…) for tenant-postgres: the run makes a database there, then drops it."
        )
        var db: String?

        @Option(help: "Tenant logins measured at each size.")
        var logins = 4000

        @Flag(help: "Print JSON ([GrowthPoint]).")
        var json = false

        @Option(help: "Also write the JSON to this file.")
        var out: String?

        func validate() throws {
            guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }), logins > 0 else {
                throw ValidationError("--sizes and --logins are positive.")
            }
            if let db, !PostgresURL.isPostgres(db) {
                throw ValidationError("--db is a postgres:// or postgresql:// URL.")
            }
        }

        func run() async throws {
            let wanted = groups.isEmpty ? TenantGrowth.groupNames : groups
            var points: [GrowthPoint] = []
            for group in wanted {
                switch group {
                case "tenant-sqlite", "tenant-postgres":
                    var growth = TenantGrowth(database: db, groups: [group])
                    growth.logins = logins
                    points += try await growth.points(sizes: sizes, progress: BenchOutput.progress)
                default:
                    throw ValidationError("--group \(group) is not one of \(TenantGrowth.groupNames).")
                }
            }
            if let out {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                try encoder.encode(points).write(to: URL(fileURLWithPath: out))
            }
            try BenchOutput.write(
                points, json: json,
                lines: points.map {
                    "\($0.group) \($0.series) \($0.size): " + String(format: "%.2f", $0.value) + " \($0.unit)"
                })
        }
    }
}
