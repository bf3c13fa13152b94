import Auth0Passkeys
import Foundation
import PasskeyKit
import PasskeyTenant
import WebAuthn

/// Password logins per second beside native passkey logins, over HTTP on loopback, measured
/// alternately in one run, with the cost of the password hash stated.
///
/// A password login is Auth0's password-realm grant (`VirtualUser.logIn(usernameOrEmail:password:)`:
/// one request, then the ID token validated); the tenant verifies the password with scrypt
/// (RFC 7914) at the database connection's cost, N = 2^`passwordHashLogN`, r = 8, p = 1. The native
/// login is the passkey figure's path (challenge, assertion, webauthn grant): two requests and a
/// signature check instead of one request and a memory-hard hash, so the ratio is what the hash
/// costs against the passkey's extra round trip.
///
/// `users` password users sign up over HTTP first (`/dbconnections/signup`), and as many passkey
/// users in process; client k of K logs in the users whose index is k modulo K, in both figures.
struct PasswordLoginBench {
    /// The password every bench user has: one that the default policy (`good`) admits.
    static let password = "Bench-Correct-Horse-9"

    let users: Int
    let clients: [Int]
    let seconds: Double
    let rounds: Int

    /// Password and native logins per second with K clients, alternating, and their ratio.
    typealias Figure = LoginsBesideNative

    /// The hash's cost: scrypt's parameters, and how long one hash takes here (the median of
    /// five), which bounds a password login whatever the rest costs.
    struct HashCost: Encodable {
        let n: UInt64
        let r: UInt32
        let p: UInt32
        let milliseconds: Double

        /// `scrypt N=32768 r=8 p=1: 95.1 ms per hash`.
        var text: String { "scrypt N=\(n) r=\(r) p=\(p): " + String(format: "%.1f", milliseconds) + " ms per hash" }
    }

    /// One hash at the tenant's cost, timed five times; the median.
    static func hashCost(logN: Int) throws -> HashCost {
        let n = UInt64(1) << UInt64(logN)
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<5 {
            let start = clock.now
            _ = try KDF.scrypt(password: Array(password.utf8), salt: [UInt8](repeating: 7, count: 16), n: n, r: 8, p: 1)
            times.append((clock.now - start).seconds * 1000)
        }
        return HashCost(n: n, r: 8, p: 1, milliseconds: times.sorted()[times.count / 2])
    }

    /// Signs ``users`` password users up at `endpoint` and as many passkey users in process, then
    /// measures both logins per K, `rounds` times alternately; the medians are kept.
    func figures(tenant: PasskeyTenant, endpoint: TenantEndpoint) async throws -> [Figure] {
        var connection = try Tenant(clientID: tenant.clientID, baseURL: endpoint.baseURL)
        connection.connection = tenant.configuration.connection
        let emails = (0..<users).map { "password\($0)@example.com" }
        for email in emails {
            _ = try await connection.authentication.signup(
                email: email, password: Self.password, connection: tenant.configuration.connection
            ).start()
        }
        let passwordUsers = emails.map { _ in VirtualUser(tenant: connection, device: nil) }
        let devices = try await WebLoginBench.signUp(users, at: tenant, as: "native")
        let nativeUsers = devices.map { VirtualUser(tenant: connection, device: $0) }
        return try await Throughput.pairedUserRates(
            users: users, clients: clients, seconds: seconds, rounds: rounds,
            { _ = try await passwordUsers[$0].logIn(usernameOrEmail: emails[$0], password: Self.password) },
            baseline: { try await nativeUsers[$0].logIn() }
        ).map {
            Figure(
                clients: $0.clients, key: "passwordLoginsPerSecond", loginsPerSecond: $0.value,
                nativeLoginsPerSecond: $0.baseline)
        }
    }
}
