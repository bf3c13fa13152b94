import Auth0Passkeys
import BlockingIO
import Foundation
import PasskeyAuthenticator
import WebAuthn

/// `passkey-bench --only session`: a `CredentialsManager` over sealed session files (issue 17),
/// each figure beside the same file work without sealing, in the same run: reading the stored,
/// valid credentials (lock, read, AES-256-GCM open, decode) against reading the entry's file raw,
/// and storing them (encode, seal, durable replacement) against a raw durable replacement of as
/// many bytes.
struct SessionBench {
    let seconds: Double
    let rounds: Int
    let scratch: String

    func figures(progress: (String) -> Void) async throws -> [BenchFigure] {
        let directory = scratch + "/session"
        let storage = FileCredentialsStorage(directory: directory, sealing: .keyFile(scratch + "/session.key"))
        // No request is sent: the credentials stay valid, so the manager never renews.
        let manager = CredentialsManager(
            authentication: try Authentication(clientId: "bench", baseURL: "https://bench.example"), storage: storage)
        // Token sizes of a real session: JWT access and ID tokens, an opaque refresh token.
        let credentials = Credentials(
            accessToken: String(repeating: "a", count: 800), tokenType: "Bearer",
            idToken: String(repeating: "i", count: 900), refreshToken: "v1." + String(repeating: "r", count: 60),
            expiresAt: Date().addingTimeInterval(86_400), scope: "openid profile email offline_access")
        try await manager.store(credentials: credentials)
        let entry = directory + "/" + Base64URL.encode(Array("credentials".utf8)) + ".sealed"
        let payload = [UInt8](repeating: 0x5A, count: FileManager.default.contents(atPath: entry)?.count ?? 0)
        let io = BlockingExecutor(label: "passkey-bench: raw session files")
        let raw = try RawDurableDirectory(path: scratch + "/session-raw")

        progress("session: sealed credentials read and stored, beside the same file work raw")
        var figures = try await BenchFigure.paired(
            "session-read", "CredentialsManager.credentials(), sealed file", baseline: "raw-session-read",
            baselineLabel: "raw read of the same file", target: nil, rounds: rounds, seconds: seconds,
            { _ = try await manager.credentials() },
            against: {
                _ = try await io.run { () throws(SystemCallError) in try SmallFile.read(entry, limit: 1 << 20) }
            })
        figures += try await BenchFigure.paired(
            "session-store", "CredentialsManager.store(credentials:), sealed file",
            baseline: "raw-session-replace", baselineLabel: "raw durable replacement of as many bytes", target: nil,
            rounds: rounds, seconds: seconds, { try await manager.store(credentials: credentials) },
            against: { try await io.run { () throws(SystemCallError) in try raw.replace("file.json", with: payload) } })
        return figures
    }
}
