import Foundation
import PasskeyAuthenticator
import WebAuthn

/// A file store of `count` platform-profile passkeys, each of its own RP, made once through the
/// library's bulk path (``FileCredentialStore/add(contentsOf:)``) and kept between runs:
///
/// ```
/// ROOT/store       the store
/// ROOT/made.json   { "count": N, "seconds": S }: written once the store is whole, with how long
///                  making it took; a ROOT without it (a run stopped while making) is made again
/// ```
///
/// Credential `i` has a fixed ID (``id(_:)``) and RP (``rpID(_:)``), so a bench asks for any of
/// them without reading the store.
struct LargeStore {
    let count: Int
    let root: String

    /// How a store was made.
    struct Made: Codable {
        let count: Int
        /// How long making it took.
        let seconds: Double
    }

    /// Credentials per bulk import: every file's bytes of a batch are held at once.
    static let batch = 20_000

    /// The store's directory.
    var directory: String { root + "/store" }

    private var record: String { root + "/made.json" }

    /// The cache of made stores: `$XDG_CACHE_HOME/softpasskey/growth`, else
    /// `~/.cache/softpasskey/growth`.
    static var cache: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() + "/.cache"
        return base + "/softpasskey/growth"
    }

    /// Credential `index`'s ID: 16 bytes that look random and are the same in every run.
    static func id(_ index: Int) -> [UInt8] {
        Array(SHA256Digest.hash(Array("passkey-bench large store \(index)".utf8)).prefix(16))
    }

    /// Credential `index`'s RP: one RP per credential, so a discoverable `get` there finds one.
    static func rpID(_ index: Int) -> String {
        "rp\(index).bench.example"
    }

    /// Makes the store, unless `root` holds a whole one of `count` credentials.
    ///
    /// - Returns: how it was made, now or in an earlier run.
    func prepare(progress: (String) -> Void) async throws -> Made {
        if let data = FileManager.default.contents(atPath: record),
            let made = try? JSONDecoder().decode(Made.self, from: data), made.count == count
        {
            progress("reusing the \(count)-passkey store in \(directory) (made in \(Self.format(made.seconds)))")
            return made
        }
        if FileManager.default.fileExists(atPath: directory) {
            progress("removing the partly made store in \(directory)")
            try FileManager.default.removeItem(atPath: directory)
        }
        progress("making a \(count)-passkey store in \(directory) through the bulk import (kept for later runs)")
        let clock = ContinuousClock()
        let start = clock.now
        let store = try await FileCredentialStore(directory: directory)
        let secrets = try CredentialSecrets.random(.es256)  // one key for all: the store is measured
        let createdAt = Date()
        for first in stride(from: 0, to: count, by: Self.batch) {
            var credentials: [StoredCredential] = []
            credentials.reserveCapacity(Self.batch)
            for index in first..<min(count, first + Self.batch) {
                let id = Self.id(index)
                let key = try await store.makeKey(
                    CredentialKeyRequest(
                        credentialID: id, rpID: Self.rpID(index), algorithm: .es256, importing: secrets))
                credentials.append(
                    try StoredCredential(
                        id: id, rpID: Self.rpID(index), userHandle: Array("user-\(index)".utf8),
                        userName: "user\(index)", userDisplayName: "User \(index)", key: key, profile: "platform",
                        backupEligible: true, backupState: true, discoverable: true, createdAt: createdAt))
            }
            try await store.add(contentsOf: credentials)
            if (first / Self.batch) % 10 == 9 {
                progress("\(first + credentials.count) of \(count) in \(Self.format((clock.now - start).seconds))")
            }
        }
        let made = Made(count: count, seconds: (clock.now - start).seconds)
        try JSONEncoder().encode(made).write(to: URL(fileURLWithPath: record))
        progress("made the \(count)-passkey store in \(Self.format(made.seconds))")
        return made
    }

    static func format(_ seconds: Double) -> String {
        String(format: "%.1f s", seconds)
    }
}
