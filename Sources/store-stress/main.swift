// Test support for PasskeyAuthenticatorTests: one process using a FileCredentialStore.
//
//   store-stress hammer DIR ADDS INCREMENTS SHARED_ID   adds ADDS credentials, then increments the
//                                                       counter of SHARED_ID (base64url) INCREMENTS
//                                                       times; prints "added ID" and "counter N"
//                                                       lines, each flushed once durable
//   store-stress bench DIR COUNT                        fills the store to COUNT credentials (9 in 10
//                                                       of example.com, the rest over 1,000 small
//                                                       RPs), then runs `probe` in a fresh process
//   store-stress probe DIR                              times opening the store, summaries(rpID:) and
//                                                       credential(id:), and reports VmRSS
//   store-stress unlock DIR PASSPHRASE                  times opening a passphrase store
import Foundation
import PasskeyAuthenticator
import WebAuthn

func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func makeCredential(_ id: [UInt8], rpID: String, store: some CredentialStore) async throws -> StoredCredential {
    try StoredCredential(
        id: id, rpID: rpID, userHandle: Array(id.prefix(8)), userName: "user-\(Base64URL.encode(id.prefix(6)))",
        userDisplayName: "User",
        key: await store.makeKey(CredentialKeyRequest(credentialID: id, rpID: rpID, algorithm: .es256)),
        profile: "platform", backupEligible: true, backupState: true, discoverable: true, createdAt: Date())
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// `p50 … ms, p99 … ms` of a sample of times in milliseconds.
func percentiles(_ times: [Double]) -> String {
    let sorted = times.sorted()
    return String(
        format: "p50 %.4f ms, p99 %.4f ms, max %.3f ms", sorted[sorted.count / 2], sorted[sorted.count * 99 / 100],
        sorted.last ?? 0)
}

/// The process's resident set size, from `/proc/self/status`.
func residentMegabytes() -> String {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? "VmRSS: ? kB"
    let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    return String(format: "%.1f MB", kilobytes / 1024)
}

/// The RP of the `index`th credential of a bench store.
func benchRP(_ index: Int) -> String {
    index % 10 == 9 ? "rp\(index % 1000).example" : "example.com"
}

let arguments = CommandLine.arguments
let clock = ContinuousClock()
switch arguments.dropFirst().first {
case "hammer" where arguments.count == 6:
    let store = try await FileCredentialStore(directory: arguments[2])
    for _ in 0..<Int(arguments[3])! {
        let id = SecureRandom.bytes(16)
        try await store.add(await makeCredential(id, rpID: "stress.example", store: store))
        emit("added \(Base64URL.encode(id))")
    }
    let shared = try Base64URL.decode(arguments[5])
    for _ in 0..<Int(arguments[4])! {
        emit("counter \(try await store.incrementCounter(id: shared))")
    }
case "bench" where arguments.count == 4:
    let count = Int(arguments[3])!
    var store: FileCredentialStore?
    let opening = try await clock.measure { store = try await FileCredentialStore(directory: arguments[2]) }
    emit(String(format: "open before fill: %.1f ms", milliseconds(opening)))
    let existing = try await store!.all().credentials.count
    if existing < count {
        let filling = try await clock.measure {
            for index in existing..<count {
                try await store!.add(await makeCredential(SecureRandom.bytes(16), rpID: benchRP(index), store: store!))
            }
        }
        emit(
            String(
                format: "fill %d: %.1f s (%.2f ms per add)", count - existing, milliseconds(filling) / 1000,
                milliseconds(filling) / Double(count - existing)))
    }
    store = nil
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    probe.arguments = ["probe", arguments[2]]
    let start = clock.now
    try probe.run()
    probe.waitUntilExit()
    emit(String(format: "fresh process, start to exit: %.1f ms", milliseconds(clock.now - start)))
case "probe" where arguments.count == 3:
    var opened: FileCredentialStore?
    let opening = try await clock.measure { opened = try await FileCredentialStore(directory: arguments[2]) }
    let store = opened!
    var big: [CredentialSummary] = []
    let indexing = try await clock.measure { big = try await store.summaries(rpID: "example.com") }
    emit(
        String(
            format: "fresh process: open %.2f ms, first summaries(rpID:) %.1f ms (%d summaries; reads the index)",
            milliseconds(opening), milliseconds(indexing), big.count))
    let small = try await (0..<1000).asyncFlatMap { try await store.summaries(rpID: "rp\($0).example") }
    let ids = (big + small).map(\.id)
    emit("credentials: \(ids.count)")
    for (name, lookup) in [
        ("summaries(rpID:) of example.com", { (_: Int) in _ = try await store.summaries(rpID: "example.com") }),
        (
            "summaries(rpID:) of a small RP",
            { (index: Int) in _ = try await store.summaries(rpID: "rp\(index % 1000).example") }
        ),
        ("credential(id:)", { (index: Int) in _ = try await store.credential(id: ids[index]) }),
    ] as [(String, (Int) async throws -> Void)] {
        var times: [Double] = []
        for _ in 0..<5000 {
            let index = Int.random(in: 0..<ids.count)
            times.append(milliseconds(try await clock.measure { try await lookup(index) }))
        }
        emit("\(name): \(percentiles(times))")
    }
    emit("VmRSS after the lookups: \(residentMegabytes())")
    // Another instance changes the store: this one reads only the journal's new record.
    let other = try await FileCredentialStore(directory: arguments[2])
    var times: [Double] = []
    for round in 0..<50 {
        let id = SecureRandom.bytes(16)
        try await other.add(await makeCredential(id, rpID: "rp\(round).example", store: other))
        times.append(
            milliseconds(try await clock.measure { _ = try await store.summaries(rpID: "rp\(round).example") }))
        try await other.delete(id: id)
    }
    emit("summaries(rpID:) of a small RP after another instance's add: \(percentiles(times))")
case "unlock" where arguments.count == 4:
    _ = try await FileCredentialStore(directory: arguments[2], passphrase: Passphrase(arguments[3]))
    let opening = try await clock.measure {
        _ = try await FileCredentialStore(directory: arguments[2], passphrase: Passphrase(arguments[3]))
    }
    emit("unlock: \(milliseconds(opening)) ms")
default:
    FileHandle.standardError.write(Data("usage: store-stress hammer|bench|probe|unlock ...\n".utf8))
    exit(2)
}

extension Sequence {
    func asyncFlatMap<T>(_ transform: (Element) async throws -> [T]) async rethrows -> [T] {
        var result: [T] = []
        for element in self {
            result += try await transform(element)
        }
        return result
    }
}
