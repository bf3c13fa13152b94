import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey-bench serve`, `e2e` and `tenant` give the HTTP figures under their names, each with its
/// baseline of the same run (speed is the bench's output, never a test's verdict).
@Suite struct HTTPBenchCommandTests {
    @Test func serveGivesGetAgainstTheEmptyRoute() async throws {
        let result = try await ChildProcess.run(
            ChildProcess.built("passkey-bench"),
            ["serve", "--seconds", "0.05", "--rounds", "1", "--clients", "8", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try JSONValue(json: Array(result.stdout.utf8))
        let figures = try #require(output["figures"]?.arrayValue)
        #expect(figures.map { $0["name"]?.stringValue } == ["serve-empty-route-k8", "serve-get-k8"])
        #expect(figures[1]["baseline"]?.stringValue == "serve-empty-route-k8")
        #expect(figures[1]["target"]?.numberValue == 0.85)
        #expect((figures[1]["ratio"]?.numberValue ?? 0) > 0)
        #expect(output["ceremonies"]?.arrayValue?.count == 2)
    }

    @Test func e2eGivesLoginsAgainstTheCeiling() async throws {
        let result = try await ChildProcess.run(
            ChildProcess.built("passkey-bench"),
            ["e2e", "--users", "3", "--concurrency", "2", "--seconds", "0.05", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(try JSONValue(json: Array(result.stdout.utf8))["figures"]?.arrayValue)
        #expect(figures.map { $0["name"]?.stringValue } == ["e2e-ceiling", "e2e-login"])
        #expect(figures[1]["baseline"]?.stringValue == "e2e-ceiling")
        #expect(figures[1]["target"]?.numberValue == 0.7)
        #expect((figures[1]["ratio"]?.numberValue ?? 0) > 0)
    }

    /// `--only tenant-web-login`: a regular web application's logins through the authorization code
    /// flow (the login page driven without a browser, `client_secret_basic`) beside the native
    /// passkey login; `--only tenant-federated-login`: logins at one tenant through another, a
    /// passkey provider in embedded mode over TLS (issue 40), beside the native login. Each measured
    /// alternately, per K; the other figures left out. `--only tenant-password-login`: password
    /// logins (issue 41) beside the native login, with scrypt's cost stated.
    @Test(arguments: [
        (only: "tenant-web-login", figures: "webLogins", perSecond: "webLoginsPerSecond", other: "overHTTP"),
        (
            only: "tenant-federated-login", figures: "federatedLogins", perSecond: "federatedLoginsPerSecond",
            other: "webLogins"
        ),
        (
            only: "tenant-password-login", figures: "passwordLogins", perSecond: "passwordLoginsPerSecond",
            other: "federatedLogins"
        ),
    ])
    func tenantGivesWebFederatedAndPasswordLoginsBesideNativeLogins(
        _ bench: (only: String, figures: String, perSecond: String, other: String)
    ) async throws {
        let result = try await ChildProcess.run(
            ChildProcess.built("passkey-bench"),
            [
                "tenant", "--only", bench.only, "--seconds", "0.05", "--rounds", "1", "--clients", "2",
                "--web-users", "2", "--json",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try JSONValue(json: Array(result.stdout.utf8))
        #expect(output[bench.other]?.arrayValue?.isEmpty == true)
        #expect(output["loginsPerSecond"] == nil)
        let figures = try #require(output[bench.figures]?.arrayValue)
        #expect(figures.map { $0["clients"]?.numberValue } == [2])
        #expect(figures.allSatisfy { ($0[bench.perSecond]?.numberValue ?? 0) > 0 })
        #expect(figures.allSatisfy { ($0["ratio"]?.numberValue ?? 0) > 0 })
        let hash = output["passwordHash"].map { [$0["n"], $0["r"], $0["p"]].map { $0?.numberValue } }
        #expect(hash == (bench.only == "tenant-password-login" ? [32768, 8, 1] : nil), "\(output)")
        #expect(hash == nil || (output["passwordHash"]?["milliseconds"]?.numberValue ?? 0) > 0)
    }

    /// With `--db postgres://…`: logins over HTTP with N instances on one database (a user signed up
    /// at the first, logging in at all), beside SQLite's, each as a ratio to the ceiling.
    @Test(.enabled(if: TestTenant.postgresServer != nil))
    func tenantGivesLoginsOfInstancesOnOnePostgreSQL() async throws {
        let database = try await TestTenant.defaultDatabase()
        let result = try await ChildProcess.run(
            ChildProcess.built("passkey-bench"),
            [
                "tenant", "--seconds", "0.05", "--rounds", "1", "--clients", "2", "--db", database, "--instances",
                "1", "2", "--json",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try JSONValue(json: Array(result.stdout.utf8))
        #expect(output["overHTTP"]?.arrayValue?.count == 1)
        let shared = try #require(output["overPostgres"]?.arrayValue)
        #expect(shared.map { $0["instances"]?.numberValue } == [1, 2])
        #expect(shared.allSatisfy { ($0["ratio"]?.numberValue ?? 0) > 0 && $0["clients"]?.numberValue == 2 })
    }
}
