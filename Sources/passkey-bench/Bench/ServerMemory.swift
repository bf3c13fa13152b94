import Auth0Passkeys
import BlockingIO
import Foundation
import PasskeyKit
import PasskeyTenant

/// The servers' resident memory (issue 46), each a `passkey` process of its own started by the
/// bench (``ServedChild``), read from `/proc/PID/status`:
///
/// - `passkey serve` holding `authenticators` virtual authenticators, made one by one through its
///   HTTP API (WebAuthn L3 §11.3 Add Virtual Authenticator) in one session: the resident size then,
///   and what each added to the size of the server with the empty session.
/// - `passkey tenant serve` on a SQLite database of `users` users (seeded through the bulk path,
///   ``GrowthUsers``) under a login load: `logins` native logins over HTTP of random users, K at a
///   time, each leaving a login session and a refresh token; the resident size before, the most
///   during, and the growth from before to after over the logins (what a session costs the
///   process: its records live in the database, so this is mostly the allocator's warm-up).
struct ServerMemory {
    var authenticators = 1000
    var users = 10_000
    var logins = 4000
    var clients = 8

    func figures(progress: (String) -> Void) async throws -> [BenchFigure] {
        progress("passkey serve: \(authenticators) authenticators through its HTTP API")
        let serve = try await serveFigures()
        progress("passkey tenant serve: \(users) users, \(logins) logins with K=\(clients)")
        return serve + (try await tenantFigures())
    }

    private struct ServeStart: Decodable {
        let url: String
        let token: String
    }

    /// A control API answer, `{"value": …}`.
    private struct Answer<Member: Decodable>: Decodable {
        let value: Member
    }

    private struct Session: Decodable {
        let sessionId: String
    }

    private func serveFigures() async throws -> [BenchFigure] {
        try await ServedChild.serving(["serve", "--json", "--port", "0"]) { [authenticators] child in
            let start = try JSONDecoder().decode(ServeStart.self, from: Data(child.startLine))
            let transport = CurlTransport()
            @Sendable func post(_ path: String, _ body: String?) async throws -> [UInt8] {
                let response = try await transport.send(
                    HTTPRequest(
                        method: .post, url: start.url + path,
                        headers: [
                            (name: "Authorization", value: "Bearer \(start.token)"),
                            (name: "Content-Type", value: "application/json"),
                        ], body: body.map { Array($0.utf8) }))
                guard response.status == 200 else {
                    throw BenchChildFailure(reason: "passkey serve: POST \(path) answered \(response.status)")
                }
                return response.body
            }
            let session = try JSONDecoder().decode(Answer<Session>.self, from: Data(try await post("/session", nil)))
                .value.sessionId
            let empty = try child.residentMegabytes().now
            for _ in 0..<authenticators {
                _ = try await post(
                    "/session/\(session)/webauthn/authenticator", #"{"softpasskey:profile":"platform"}"#)
            }
            let held = try child.residentMegabytes().now
            return [
                BenchFigure(
                    name: "serve-resident-\(authenticators)-authenticators",
                    label: "passkey serve, \(authenticators) authenticators", value: held,
                    unit: "MB"),
                BenchFigure(
                    name: "serve-resident-per-authenticator",
                    label: "passkey serve, added per authenticator",
                    value: (held - empty) * 1024 / Double(authenticators), unit: "KB"),
            ]
        }
    }

    private struct TenantStart: Decodable {
        let url: String
        let clientID: String

        enum CodingKeys: String, CodingKey {
            case url
            case clientID = "client_id"
        }
    }

    private func tenantFigures() async throws -> [BenchFigure] {
        let scratch = try ScratchDirectory("passkey-bench-memory")
        defer { scratch.remove() }
        let database = scratch.path + "/tenant.sqlite"
        let growthUsers = try await seed(database)
        return try await ServedChild.serving(["tenant", "serve", "--json", "--port", "0", "--db", database]) {
            [users, logins, clients] child in
            let start = try JSONDecoder().decode(TenantStart.self, from: Data(child.startLine))
            let connection = try Tenant(clientID: start.clientID, baseURL: start.url)
            var sample: [VirtualUser] = []
            for _ in 0..<logins {
                sample.append(
                    VirtualUser(tenant: connection, device: try await growthUsers.device(Int.random(in: 0..<users))))
            }
            let idle = try child.residentMegabytes().now
            let phase = try await UserPhase.run(sample, concurrency: clients) { _, user in try await user.logIn() }
            let (after, peak) = try child.residentMegabytes()
            return [
                BenchFigure(
                    name: "tenant-serve-resident-idle", label: "tenant serve, \(users) users, idle", value: idle,
                    unit: "MB"),
                BenchFigure(
                    name: "tenant-serve-resident-under-load",
                    label: "tenant serve, \(String(format: "%.0f", phase.perSecond)) logins/s K=\(clients), most",
                    value: peak, unit: "MB"),
                BenchFigure(
                    name: "tenant-serve-resident-per-session", label: "tenant serve, added per login session",
                    value: (after - idle) * 1024 / Double(logins), unit: "KB"),
            ]
        }
    }

    /// Seeds `users` users into a new tenant database at `path`, in process, and closes it.
    private func seed(_ path: String) async throws -> GrowthUsers {
        let tenant = try await PasskeyTenant(database: path)
        let growthUsers = GrowthUsers(rpID: tenant.configuration.relyingPartyID)
        for start in stride(from: 0, to: users, by: 10_000) {
            _ = try await tenant.importUsers(try (start..<min(start + 10_000, users)).map(growthUsers.imported))
        }
        await tenant.close()
        return growthUsers
    }
}
