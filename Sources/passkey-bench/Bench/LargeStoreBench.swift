import BlockingIO
import Foundation
import PasskeyAuthenticator
import WebAuthn

/// The scale figures of `passkey-bench authenticator`: a ``LargeStore`` (100,000 credentials by
/// default), opened by a fresh instance as a new CLI process would, then looked up by credential
/// ID and listed by RP ID; a fresh instance's first `get`; and fresh `passkey` processes that
/// sign once and list the whole store, with the most memory such a process holds.
/// (`passkey-bench growth` measures the same store at several sizes: ``StoreGrowth``.)
struct LargeStoreBench {
    let store: LargeStore
    let lookups = 2000

    func figures(progress: (String) -> Void) async throws -> [BenchFigure] {
        _ = try await store.prepare(progress: progress)
        let directory = store.directory
        let count = store.count
        // Fresh processes and the first get come first, before this process's heap holds the
        // whole store.
        progress("fresh passkey processes on the \(count)-credential store")
        let children = try ChildProcesses()
        let scratch = try ScratchDirectory("passkey-bench-options")
        defer { scratch.remove() }
        try scratch.write("options.json", WebAuthnJSON.encode(StoreGrowth.requestOptions(at: 0)))
        let start = try await children.seconds(["--version"])
        let get = try await children.seconds(
            [
                "get", "--store", directory, "--origin", "https://\(LargeStore.rpID(0))", "--options",
                scratch.path + "/options.json",
            ])
        let listMegabytes = try await children.mostResidentMegabytes(["list", "--store", directory])
        progress("looking up in the \(count)-credential store")
        let clock = ContinuousClock()
        var firstGets: [Duration] = []
        for _ in 0..<5 {
            firstGets.append(
                try await clock.measure { try await getOnce(from: FileCredentialStore(directory: directory)) })
        }
        let firstGet = firstGets.sorted()[firstGets.count / 2]
        let reopened = try await FileCredentialStore(directory: directory)
        let opening = try await clock.measure { _ = try await reopened.credentials(rpID: LargeStore.rpID(0)) }
        let drawn = (0..<lookups).map { _ in Int.random(in: 0..<count) }
        let ids = drawn.map(LargeStore.id)
        let rpIDs = drawn.map(LargeStore.rpID)
        let byID = try await Latencies.measure(count: lookups) { index in
            _ = try await reopened.credential(id: ids[index])
        }
        let byRP = try await Latencies.measure(count: lookups) { index in
            _ = try await reopened.credentials(rpID: rpIDs[index])
        }
        return [
            BenchFigure(
                name: "large-store-first-get",
                label: "\(count) credentials: first get, new instance",
                value: firstGet.seconds * 1000, unit: "ms", target: 50),
            BenchFigure(
                name: "large-store-first-listing", label: "\(count) credentials: first listing by RP",
                value: opening.seconds * 1000, unit: "ms"),
            BenchFigure(
                name: "large-store-lookup-p50", label: "\(count) credentials: lookup by ID, p50",
                value: byID.milliseconds(atPercentile: 50), unit: "ms"),
            BenchFigure(
                name: "large-store-lookup-p99", label: "\(count) credentials: lookup by ID, p99",
                value: byID.milliseconds(atPercentile: 99), unit: "ms", target: 1),
            BenchFigure(
                name: "large-store-rp-p99", label: "\(count) credentials: listing one RP's 1, p99",
                value: byRP.milliseconds(atPercentile: 99), unit: "ms"),
            BenchFigure(
                name: "large-store-process-start", label: "fresh process: passkey --version",
                value: start * 1000,
                unit: "ms"),
            BenchFigure(
                name: "large-store-process-get", label: "\(count) credentials: fresh process, passkey get",
                value: get * 1000, unit: "ms"),
            BenchFigure(
                name: "large-store-process-list-memory", label: "\(count) credentials: passkey list, most resident",
                value: listMegabytes, unit: "MB", target: 150),
        ]
    }

    /// One discoverable `get` at the first credential's RP, as `passkey get` makes it.
    private func getOnce(from store: FileCredentialStore) async throws {
        let client = WebAuthnClient(authenticator: SoftwareAuthenticator(store: store, profile: .platform))
        _ = WebAuthnJSON.encode(
            try await client.get(
                StoreGrowth.requestOptions(at: 0), origin: try WebOrigin("https://\(LargeStore.rpID(0))")))
    }
}
