import Auth0Passkeys
import Foundation
import TestSupport
import Testing
import WebAuthn

/// ``FileCredentialsStorage`` seals every entry (issue 17): nothing on disk in the clear, an entry
/// under another key or altered is a typed error that leaves the other entries readable, entries
/// cannot be swapped, clear entries of an earlier version are sealed on first read, and a full
/// disk leaves the previous entry intact.
@Suite struct SealedCredentialsStorageTests {
    static let token = "v1.refresh-token-that-must-never-be-on-disk"

    func storage(_ directory: TemporaryDirectory, key: String = "storage.key") -> FileCredentialsStorage {
        FileCredentialsStorage(directory: directory.appending("sessions"), sealing: .keyFile(directory.appending(key)))
    }

    /// Every file below `path`, as bytes.
    func files(_ path: String) throws -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: path) {
            if let data = FileManager.default.contents(atPath: path + "/" + name) {
                found[name] = Array(data)
            }
        }
        return found
    }

    @Test(.temporaryDirectory) func entriesAreSealedAndTheKeyFileIsApartAndPrivate() throws {
        let directory = try TemporaryDirectory.current
        let storage = storage(directory)
        try storage.setEntry(Array(Self.token.utf8), forKey: "credentials")
        try storage.setEntry(Array("api".utf8), forKey: "https://api.example/::read:a")
        #expect(try storage.entry(forKey: "credentials") == Array(Self.token.utf8))
        #expect(try storage.entryKeys() == ["credentials", "https://api.example/::read:a"])

        let onDisk = try files(storage.directory)
        #expect(onDisk.count == 2)
        for (name, bytes) in onDisk {
            #expect(name.hasSuffix(".sealed"))
            #expect(bytes.starts(with: Array("A0SE".utf8) + [1]))
            #expect(!bytes.contains(subsequence: Array("refresh-token".utf8)), "\(name)")
        }
        let key = try #require(FileManager.default.contents(atPath: directory.appending("storage.key")))
        #expect(key.count == 32)
        #expect(try permissions(directory.appending("storage.key")) == 0o600)
        #expect(try permissions(storage.directory) == 0o700)
    }

    @Test(.temporaryDirectory) func anEntryUnderAnotherKeyIsWrongKeyAndALostKeyFileToo() throws {
        let directory = try TemporaryDirectory.current
        try storage(directory).setEntry(Array(Self.token.utf8), forKey: "credentials")

        let other = storage(directory, key: "other.key")
        try other.setEntry(Array("mine".utf8), forKey: "mine")
        #expect(throws: CredentialsStorageError.self) { try other.entry(forKey: "credentials") }
        #expect(code { try other.entry(forKey: "credentials") } == .wrongKey)
        #expect(try other.entry(forKey: "mine") == Array("mine".utf8), "the other entries stay readable")

        try FileManager.default.removeItem(atPath: directory.appending("storage.key"))
        #expect(code { try storage(directory).entry(forKey: "credentials") } == .wrongKey)
    }

    @Test(.temporaryDirectory, arguments: ["flip", "truncate", "empty", "swap"])
    func aTamperedEntryIsTamperedAndTheOthersStayReadable(_ damage: String) throws {
        let directory = try TemporaryDirectory.current
        let storage = storage(directory)
        try storage.setEntry(Array(Self.token.utf8), forKey: "credentials")
        try storage.setEntry(Array("api".utf8), forKey: "api")
        let path = storage.directory + "/" + Base64URL.encode(Array("credentials".utf8)) + ".sealed"
        var bytes = Array(try #require(FileManager.default.contents(atPath: path)))
        switch damage {
        case "flip": bytes[bytes.count - 20] ^= 1
        case "truncate": bytes.removeLast(7)
        case "empty": bytes = []
        default:  // the other entry's file, copied over this one: sealed under the same key
            bytes = Array(
                try #require(
                    FileManager.default.contents(
                        atPath: storage.directory + "/" + Base64URL.encode(Array("api".utf8)) + ".sealed")))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(code { try storage.entry(forKey: "credentials") } == .tampered)
        #expect(try storage.entry(forKey: "api") == Array("api".utf8))
    }

    @Test(.temporaryDirectory) func aPassphraseStorageOpensOnlyWithItsPassphrase() throws {
        let directory = try TemporaryDirectory.current
        let path = directory.appending("sessions")
        let sealed = FileCredentialsStorage(directory: path, sealing: .passphrase(Passphrase("correct horse")))
        try sealed.setEntry(Array(Self.token.utf8), forKey: "credentials")
        #expect(
            try FileCredentialsStorage(directory: path, sealing: .passphrase(Passphrase("correct horse")))
                .entry(forKey: "credentials") == Array(Self.token.utf8))
        let wrong = FileCredentialsStorage(directory: path, sealing: .passphrase(Passphrase("battery staple")))
        #expect(code { try wrong.entry(forKey: "credentials") } == .wrongKey)
        #expect(code { try wrong.setEntry([1], forKey: "other") } == .wrongKey, "nothing is sealed under it")
        let keyFile = FileCredentialsStorage(directory: path, sealing: .keyFile(directory.appending("k")))
        #expect(code { try keyFile.entry(forKey: "credentials") } == .wrongKey)
        #expect(!(try files(path).values.contains { $0.contains(subsequence: Array("correct horse".utf8)) }))

        try Data("{".utf8).write(to: URL(fileURLWithPath: path + "/.sealing"))
        let damaged = FileCredentialsStorage(directory: path, sealing: .passphrase(Passphrase("correct horse")))
        #expect(code { try damaged.entry(forKey: "credentials") } == .tampered)
    }

    @Test(.temporaryDirectory) func aClearEntryOfAnEarlierVersionIsSealedOnFirstRead() throws {
        let directory = try TemporaryDirectory.current
        let storage = storage(directory)
        try FileManager.default.createDirectory(atPath: storage.directory, withIntermediateDirectories: true)
        let clear = storage.directory + "/" + Base64URL.encode(Array("credentials".utf8)) + ".json"
        try Data(Self.token.utf8).write(to: URL(fileURLWithPath: clear))
        #expect(try storage.entryKeys() == ["credentials"])

        #expect(try storage.entry(forKey: "credentials") == Array(Self.token.utf8))
        #expect(!FileManager.default.fileExists(atPath: clear))
        let onDisk = try files(storage.directory)
        #expect(onDisk.keys.allSatisfy { $0.hasSuffix(".sealed") } && onDisk.count == 1)
        #expect(!onDisk.values.contains { $0.contains(subsequence: Array("refresh-token".utf8)) })
        #expect(try storage.entry(forKey: "credentials") == Array(Self.token.utf8))
    }

    @Test(.temporaryDirectory) func storagesMakingOneKeyFileAtOnceAgreeOnIt() async throws {
        let directory = try TemporaryDirectory.current
        let keyFile = directory.appending("config/auth0/storage.key")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let storage = FileCredentialsStorage(
                        directory: directory.appending("s\(index)"), sealing: .keyFile(keyFile))
                    try storage.setEntry([UInt8(index)], forKey: "credentials")
                }
            }
            try await group.waitForAll()
        }
        for index in 0..<8 {
            let storage = FileCredentialsStorage(
                directory: directory.appending("s\(index)"), sealing: .keyFile(keyFile))
            #expect(try storage.entry(forKey: "credentials") == [UInt8(index)])
        }
        #expect(try permissions(directory.appending("config/auth0")) == 0o700)
    }

    @Test(.temporaryDirectory, .enabled("needs root to mount a 64 KiB tmpfs") { await TinyFileSystem.isAvailable })
    func aFullDiskLeavesThePreviousEntryIntact() async throws {
        let directory = try TemporaryDirectory.current
        try await TinyFileSystem.mounted(at: directory.appending("tiny")) { mount in
            let storage = FileCredentialsStorage(
                directory: mount.path + "/sessions", sealing: .keyFile(directory.appending("storage.key")))
            try storage.setEntry(Array(Self.token.utf8), forKey: "credentials")
            let filler = mount.path + "/filler"
            FileManager.default.createFile(atPath: filler, contents: Data(count: 60 * 1024))
            let large = [UInt8](repeating: 7, count: 16 * 1024)
            #expect(code { try storage.setEntry(large, forKey: "credentials") } == .diskFull)
            #expect(try storage.entry(forKey: "credentials") == Array(Self.token.utf8))
            #expect(try files(storage.directory).keys.allSatisfy { !$0.hasPrefix(".") })
        }
    }

    @Test(.temporaryDirectory) func errorsNameTheFileAndNeverTheSecrets() throws {
        let directory = try TemporaryDirectory.current
        let passphrase = "hunter2-passphrase"
        let storage = FileCredentialsStorage(
            directory: directory.appending("sessions"), sealing: .passphrase(Passphrase(passphrase)))
        try storage.setEntry(Array(Self.token.utf8), forKey: "credentials")
        let wrong = FileCredentialsStorage(directory: storage.directory, sealing: .passphrase(Passphrase("nope")))
        let error = try #require(catching { try wrong.entry(forKey: "credentials") })
        for text in [String(describing: error), String(reflecting: error), String(describing: storage)] {
            #expect(!text.contains(passphrase) && !text.contains("refresh-token"), "\(text)")
        }
        #expect(String(describing: error).contains(storage.directory))
    }
}

/// The code of the ``CredentialsStorageError`` `body` throws, or `nil`.
func code(_ body: () throws -> Any?) -> CredentialsStorageError.Code? {
    catching(body)?.code
}

/// The ``CredentialsStorageError`` `body` throws, or `nil`.
func catching(_ body: () throws -> Any?) -> CredentialsStorageError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? CredentialsStorageError
    }
}

extension Array where Element == UInt8 {
    /// Whether `subsequence` occurs in this array.
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, count >= subsequence.count else { return subsequence.isEmpty }
        return (0...(count - subsequence.count)).contains {
            self[$0..<($0 + subsequence.count)].elementsEqual(subsequence)
        }
    }
}
