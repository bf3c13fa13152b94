// Test support for PasskeyAuthenticatorTests: one process using a FileCredentialStore.
//
//   store-stress hammer DIR ADDS INCREMENTS SHARED_ID   adds ADDS credentials, then increments the
//                                                       counter of SHARED_ID (base64url) INCREMENTS
//                                                       times; prints "added ID" and "counter N"
//                                                       lines, each flushed once durable
//   store-stress bench DIR COUNT                        adds COUNT credentials, then times lookups
//   store-stress unlock DIR PASSPHRASE                  times opening a passphrase store
import Foundation
import PasskeyAuthenticator
import WebAuthn

func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func makeCredential(_ id: [UInt8], rpID: String, store: some CredentialStore) throws -> StoredCredential {
    try StoredCredential(
        id: id, rpID: rpID, userHandle: Array(id.prefix(8)), userName: "user", userDisplayName: "User",
        privateKey: SigningKey.generate(.es256), sealingKey: store.sealingKey, profile: "platform",
        backupEligible: true, backupState: true, discoverable: true, createdAt: Date())
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

let arguments = CommandLine.arguments
let clock = ContinuousClock()
switch arguments.dropFirst().first {
case "hammer" where arguments.count == 6:
    let store = try FileCredentialStore(directory: arguments[2])
    for _ in 0..<Int(arguments[3])! {
        let id = SecureRandom.bytes(16)
        try await store.add(makeCredential(id, rpID: "stress.example", store: store))
        emit("added \(Base64URL.encode(id))")
    }
    let shared = try Base64URL.decode(arguments[5])
    for _ in 0..<Int(arguments[4])! {
        emit("counter \(try await store.incrementCounter(id: shared))")
    }
case "bench" where arguments.count == 4:
    let store = try FileCredentialStore(directory: arguments[2])
    let count = Int(arguments[3])!
    var ids: [[UInt8]] = []
    let adding = try await clock.measure {
        for index in 0..<count {
            let id = SecureRandom.bytes(16)
            ids.append(id)
            try await store.add(makeCredential(id, rpID: "rp\(index % 1000).example", store: store))
        }
    }
    emit("add: \(milliseconds(adding) / Double(count)) ms each")
    let reopened = try FileCredentialStore(directory: arguments[2])
    let indexing = try await clock.measure { _ = try await reopened.credentials(rpID: "rp0.example") }
    emit("first listing (builds the index): \(milliseconds(indexing)) ms")
    for (name, lookup) in [
        ("credential(id:)", { (index: Int) in _ = try await reopened.credential(id: ids[index]) }),
        (
            "credentials(rpID:)",
            { (index: Int) in _ = try await reopened.credentials(rpID: "rp\(index % 1000).example") }
        ),
    ] as [(String, (Int) async throws -> Void)] {
        var times: [Double] = []
        for _ in 0..<2000 {
            let index = Int.random(in: 0..<count)
            times.append(milliseconds(try await clock.measure { try await lookup(index) }))
        }
        times.sort()
        emit("\(name): p50 \(times[times.count / 2]) ms, p99 \(times[times.count * 99 / 100]) ms")
    }
case "unlock" where arguments.count == 4:
    _ = try FileCredentialStore(directory: arguments[2], passphrase: Passphrase(arguments[3]))
    let opening = try clock.measure {
        _ = try FileCredentialStore(directory: arguments[2], passphrase: Passphrase(arguments[3]))
    }
    emit("unlock: \(milliseconds(opening)) ms")
default:
    FileHandle.standardError.write(Data("usage: store-stress hammer|bench|unlock ...\n".utf8))
    exit(2)
}
