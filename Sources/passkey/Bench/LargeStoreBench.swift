import Foundation
import PasskeyAuthenticator
import WebAuthn

/// The scale figures of `passkey bench`: a store of many credentials (100,000 by default),
/// opened by a fresh instance as a new CLI process would, then looked up by credential ID and
/// listed by RP ID; with the process's resident memory.
struct LargeStoreBench {
    let count: Int
    let directory: String
    let lookups = 2000

    func figures(progress: (String) -> Void) async throws -> [BenchFigure] {
        let store = try await FileCredentialStore(directory: directory)
        let existing = try await store.all().credentials.count
        if existing < count {
            progress("filling a \(count)-credential store in \(directory) (kept for later runs)")
            try await fill(store, from: existing)
        }
        progress("looking up in the \(count)-credential store")
        let reopened = try await FileCredentialStore(directory: directory)
        let clock = ContinuousClock()
        let opening = try await clock.measure { _ = try await reopened.credentials(rpID: Self.rpID(0)) }
        let ids = try await reopened.all().credentials.map(\.id)
        let byID = try await Throughput.latencies(count: lookups) { _ in
            _ = try await reopened.credential(id: ids.randomElement()!)
        }
        let byRP = try await Throughput.latencies(count: lookups) { index in
            _ = try await reopened.credentials(rpID: Self.rpID(index))
        }
        return [
            BenchFigure(
                name: "large-store-first-listing", label: "\(count) credentials: first listing by RP",
                value: opening.seconds * 1000, unit: "ms"),
            BenchFigure(
                name: "large-store-lookup-p50", label: "\(count) credentials: lookup by ID, p50",
                value: Throughput.percentile(byID, 50), unit: "ms"),
            BenchFigure(
                name: "large-store-lookup-p99", label: "\(count) credentials: lookup by ID, p99",
                value: Throughput.percentile(byID, 99), unit: "ms", target: 1),
            BenchFigure(
                name: "large-store-rp-p99", label: "\(count) credentials: listing one RP's 1, p99",
                value: Throughput.percentile(byRP, 99), unit: "ms"),
            BenchFigure(
                name: "resident-memory", label: "resident memory of this process", value: Self.residentMegabytes(),
                unit: "MB", target: 300),
        ]
    }

    /// One credential per RP, so each RP listing returns one record among `count`.
    static func rpID(_ index: Int) -> String {
        "rp\(index % 100_000).bench.example"
    }

    private func fill(_ store: FileCredentialStore, from start: Int) async throws {
        let secrets = try CredentialSecrets.random(.es256)  // one key for all: filling measures the store
        for index in start..<count {
            let id = SecureRandom.bytes(16)
            let key = try store.makeKey(
                CredentialKeyRequest(credentialID: id, rpID: Self.rpID(index), algorithm: .es256, importing: secrets))
            try await store.add(
                StoredCredential(
                    id: id, rpID: Self.rpID(index), userHandle: Array("user-\(index)".utf8), userName: "user\(index)",
                    userDisplayName: "User \(index)", key: key, profile: "platform", backupEligible: true,
                    backupState: true, discoverable: true, createdAt: Date()))
        }
    }

    /// `VmRSS` from `/proc/self/status`, in megabytes.
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else {
            return .nan
        }
        return kilobytes / 1024
    }
}
