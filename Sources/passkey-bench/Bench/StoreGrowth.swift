import BlockingIO
import Foundation
import PasskeyAuthenticator
import WebAuthn

/// How the file store's costs grow with its size (issue 46), the group `store` of
/// `passkey-bench growth`: at each size, a ``LargeStore`` of that many platform passkeys (made
/// through the bulk import, or reused from the cache) and, per operation, one ``GrowthPoint``:
///
/// | series | what |
/// |---|---|
/// | `get-by-id` | `get` per second, `allowCredentials` naming one credential drawn from the whole store |
/// | `get-discoverable` | `get` per second, `allowCredentials` empty, at an RP drawn from the store (each has one credential) |
/// | `create` | `create` per second into the store (a new user of one RP each; removed again after) |
/// | `first-get` | ms of a new `passkey get` process (discoverable, as the CLI is used), median of 5 |
/// | `first-get-by-id` | the same, with `allowCredentials` naming the credential |
/// | `process-start` | ms of a new `passkey --version`: what every new process pays before the store |
/// | `resident` | MB most resident in a `passkey get` process (GNU time's `%M`) |
/// | `disk-per-passkey` | bytes on disk (`du -s -B1` of the store) per passkey |
/// | `make-per-passkey` | µs of the bulk import per passkey: making the store, over its size |
///
/// New processes run first, before this one reads the store. The rates run in one new instance:
/// each `get` draws from the whole store, so a small store's credentials are read again (from the
/// store's recent reads) where a large one's are mostly read for the first time.
struct StoreGrowth {
    let sizes: [Int]
    /// Where made stores are kept, one folder per size.
    let cache: String
    /// Seconds per rate.
    let seconds: Double

    static let group = "store"
    /// New processes per median.
    static let runs = 5
    /// Credentials drawn for the rates.
    static let draws = 4096
    /// The RP of the `create`s.
    static let createRP = "create.bench.example"

    func points(progress: (String) -> Void) async throws -> [GrowthPoint] {
        var points: [GrowthPoint] = []
        for size in sizes {
            points += try await self.points(size: size, progress: progress)
        }
        return points
    }

    /// The options of a `get` at credential `index`'s RP: discoverable, or naming the credential.
    static func requestOptions(at index: Int, byID: Bool = false) -> PublicKeyCredentialRequestOptionsJSON {
        PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URL(SecureRandom.bytes(32)), rpId: LargeStore.rpID(index),
            allowCredentials: byID ? [PublicKeyCredentialDescriptorJSON(id: Base64URL(LargeStore.id(index)))] : nil)
    }

    private func points(size: Int, progress: (String) -> Void) async throws -> [GrowthPoint] {
        let store = LargeStore(count: size, root: cache + "/\(size)")
        let made = try await store.prepare(progress: progress)
        progress("\(size) passkeys: new passkey processes")
        let processes = try await newProcesses(store)
        progress("\(size) passkeys: get and create per second")
        let opened = try await FileCredentialStore(directory: store.directory)
        let client = WebAuthnClient(authenticator: SoftwareAuthenticator(store: opened, profile: .platform))
        let byID = try await getRate(client, size: size, byID: true)
        let discoverable = try await getRate(client, size: size, byID: false)
        let create = try await createRate(client, store: opened)
        func point(_ series: String, _ label: String, _ value: Double, _ unit: String) -> GrowthPoint {
            GrowthPoint(group: Self.group, series: series, label: label, size: size, value: value, unit: unit)
        }
        // A figure this machine cannot take (no GNU time) is left out: JSON has no NaN.
        return [
            point("get-by-id", "get by credential ID", byID, "ops/s"),
            point("get-discoverable", "discoverable get (one credential at the RP)", discoverable, "ops/s"),
            point("create", "create (a durable new file)", create, "ops/s"),
            point("first-get", "first get of a new process (passkey get)", processes.firstGet * 1000, "ms"),
            point(
                "first-get-by-id", "first get by ID of a new process (passkey get)", processes.firstGetByID * 1000,
                "ms"),
            point("process-start", "a new process (passkey --version)", processes.start * 1000, "ms"),
            point("resident", "resident memory of passkey get", processes.residentMegabytes, "MB"),
            point("disk-per-passkey", "disk per passkey (du)", processes.diskBytes / Double(size), "bytes"),
            point(
                "make-per-passkey", "making the store (bulk import), per passkey", made.seconds * 1e6 / Double(size),
                "µs"),
        ].filter(\.value.isFinite)
    }

    /// What new processes show: a `passkey --version`, a discoverable and a by-ID `passkey get`
    /// at RPs drawn from the store (medians), the most memory of such a `get`, and `du`.
    private func newProcesses(_ store: LargeStore) async throws -> (
        start: Double, firstGet: Double, firstGetByID: Double, residentMegabytes: Double, diskBytes: Double
    ) {
        let children = try ChildProcesses()
        let scratch = try ScratchDirectory("passkey-bench-growth")
        defer { scratch.remove() }
        var discoverable: [[String]] = []
        var byID: [[String]] = []
        for run in 0...Self.runs {
            let index = Int.random(in: 0..<store.count)
            let arguments = [
                "get", "--store", store.directory, "--origin", "https://\(LargeStore.rpID(index))", "--options",
            ]
            try scratch.write("discoverable-\(run).json", WebAuthnJSON.encode(Self.requestOptions(at: index)))
            try scratch.write("by-id-\(run).json", WebAuthnJSON.encode(Self.requestOptions(at: index, byID: true)))
            discoverable.append(arguments + [scratch.path + "/discoverable-\(run).json"])
            byID.append(arguments + [scratch.path + "/by-id-\(run).json"])
        }
        let start = try await children.medianSeconds(runs: Self.runs) { _ in ["--version"] }
        let firstGet = try await children.medianSeconds(runs: Self.runs) { discoverable[$0] }
        let firstGetByID = try await children.medianSeconds(runs: Self.runs) { byID[$0] }
        let resident = try await children.mostResidentMegabytes(discoverable[Self.runs])
        let disk = try await children.diskBytes(store.directory)
        return (start, firstGet, firstGetByID, resident, disk)
    }

    /// `get`s per second, options JSON in and response JSON out, each at a credential drawn from
    /// the whole store.
    private func getRate(_ client: WebAuthnClient, size: Int, byID: Bool) async throws -> Double {
        let requests = try (0..<Self.draws).map { _ in
            let index = Int.random(in: 0..<size)
            return (
                options: WebAuthnJSON.encode(Self.requestOptions(at: index, byID: byID)),
                origin: try WebOrigin("https://\(LargeStore.rpID(index))")
            )
        }
        var next = 0
        return try await Throughput.rate(seconds: seconds) {
            let request = requests[next % requests.count]
            next += 1
            _ = try await client.get(json: request.options, origin: request.origin)
        }
    }

    /// `create`s per second, each of a new user of ``createRP``, options JSON in and response JSON
    /// out; the credentials made are deleted after, so the store keeps its size for the next run.
    private func createRate(_ client: WebAuthnClient, store: FileCredentialStore) async throws -> Double {
        let origin = try WebOrigin("https://\(Self.createRP)")
        var user = 0
        let rate = try await Throughput.rate(seconds: seconds) {
            user += 1
            let options = WebAuthnJSON.encode(
                PublicKeyCredentialCreationOptionsJSON(
                    rp: PublicKeyCredentialRpEntity(name: "Growth", id: Self.createRP),
                    user: PublicKeyCredentialUserEntityJSON(
                        id: Base64URL(Array("new-\(user)".utf8)), name: "new\(user)", displayName: "New \(user)"),
                    challenge: Base64URL(SecureRandom.bytes(32)),
                    pubKeyCredParams: [PublicKeyCredentialParameters(alg: -7)],
                    authenticatorSelection: AuthenticatorSelectionCriteria(residentKey: .required)))
            let decoded = try WebAuthnJSON.decode(PublicKeyCredentialCreationOptionsJSON.self, from: options)
            _ = WebAuthnJSON.encode(try await client.create(decoded, origin: origin))
        }
        for summary in try await store.summaries(rpID: Self.createRP) {
            try await store.delete(id: summary.id)
        }
        return rate
    }
}
