import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

@Suite struct FileCredentialStoreTests {
    // MARK: Keys and passphrases

    @Test(.temporaryDirectory) func wrongPassphraseIsDetectedAndTheRightOneReopens() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let store = try await FileCredentialStore(directory: path, passphrase: Passphrase("correct horse"))
        let credential = try await makeCredential(in: store)
        try await store.add(credential)

        await #expect(throws: StoreError(.wrongPassphrase, "")) {
            try await FileCredentialStore(directory: path, passphrase: Passphrase("wrong horse"))
        }
        let missing = await #expect(throws: StoreError(.wrongPassphrase, "")) {
            try await FileCredentialStore(directory: path)
        }
        #expect(missing?.description.contains("horse") == false)
        let reopened = try await FileCredentialStore(directory: path, passphrase: Passphrase("correct horse"))
        let stored = try #require(try await reopened.credential(id: credential.id))
        #expect(try await signs(reopened, with: stored))
        #expect(!FileManager.default.fileExists(atPath: path + "/store.key"))
    }

    @Test(.temporaryDirectory) func keyFileStoreReopensAndRefusesAPassphrase() async throws {
        let (path, _, credential) = try await fileStoreWithACredential()
        let reopened = try await FileCredentialStore(directory: path)
        let stored = try #require(try await reopened.credential(id: credential.id))
        #expect(try await signs(reopened, with: stored))
        await #expect(throws: StoreError(.wrongPassphrase, "")) {
            try await FileCredentialStore(directory: path, passphrase: Passphrase("anything"))
        }
    }

    @Test(.temporaryDirectory) func aReplacedKeyFileIsReportedAsCorrupt() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        _ = try await FileCredentialStore(directory: path)
        try Data(SecureRandom.bytes(32)).write(to: URL(fileURLWithPath: path + "/store.key"))
        let error = await #expect(throws: StoreError(.corrupt, "")) { try await FileCredentialStore(directory: path) }
        #expect(error?.file == path + "/store.key")
    }

    @Test(.temporaryDirectory) func newerFormatIsReportedAsUnsupported() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        _ = try await FileCredentialStore(directory: path)
        try Data(#"{"version": 2, "somethingNew": true}"#.utf8).write(to: URL(fileURLWithPath: path + "/store.json"))
        await #expect(throws: StoreError(.unsupportedVersion, "")) { try await FileCredentialStore(directory: path) }
    }

    // MARK: Permissions and secrets on disk

    @Test(.temporaryDirectory) func directoriesAre0700AndFiles0600() async throws {
        let path = try TemporaryDirectory.current.appending("nested/store")
        let store = try await FileCredentialStore(directory: path)
        try await store.add(try await makeCredential(in: store))
        _ = try await store.incrementCounter(id: try #require(try await store.all().credentials.first).id)
        #expect(try permissions(path) == 0o700)
        #expect(try permissions(path + "/credentials") == 0o700)
        let files = try filesBelow(path)
        #expect(
            Set(files.map { $0.path.replacingOccurrences(of: path, with: "") }).isSuperset(of: [
                "/store.json", "/store.key", "/.lock", "/index.log",
            ]))
        #expect(files.count == 5)
        for file in files {
            #expect(try permissions(file.path) == 0o600, "\(file.path)")
        }
    }

    @Test(.temporaryDirectory) func aLooseExistingDirectoryIsTightened() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        chmod(path, 0o755)
        _ = try await FileCredentialStore(directory: path)
        #expect(try permissions(path) == 0o700)
    }

    @Test(.temporaryDirectory, arguments: [COSEAlgorithm.es256, .eddsa], [false, true])
    func noFileHoldsThePrivateKeyInTheClear(algorithm: COSEAlgorithm, withPassphrase: Bool) async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let passphrase = "hunter2-\(UUID().uuidString)"
        let store = try await FileCredentialStore(
            directory: path, passphrase: withPassphrase ? Passphrase(passphrase) : nil)
        let raw = try rawPrivateKey(algorithm)
        let key = try SigningKey(rawRepresentation: raw, algorithm: algorithm)
        let pkcs8 = try exportedPKCS8(key)
        #expect(contains(pkcs8, raw), "the seam should give the key's real PKCS#8")
        let credential = try await makeCredential(in: store, key: key)
        try await store.add(credential)
        _ = try await store.incrementCounter(id: credential.id)

        let needles: [(String, [UInt8])] = [
            ("raw private key", raw), ("PKCS#8", pkcs8),
            ("raw private key, base64url", Array(Base64URL.encode(raw).utf8)),
            ("PKCS#8, base64url", Array(Base64URL.encode(pkcs8).utf8)),
            ("raw private key, hex", Array(raw.map { String(format: "%02x", $0) }.joined().utf8)),
            ("passphrase", Array(passphrase.utf8)),
        ]
        let files = try filesBelow(path)
        #expect(files.count >= 3)
        for file in files {
            for (name, needle) in needles {
                #expect(!contains(file.bytes, needle), "\(file.path) holds the \(name)")
            }
        }
        #expect(try credential.publicKey == key.publicKey)
        #expect(try await signs(store, with: credential))
    }

    // MARK: Corruption and crashes

    @Test(.temporaryDirectory) func corruptFilesAreNamedAndTheOthersStayUsable() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let store = try await FileCredentialStore(directory: path)
        let good = try await makeCredential(in: store)
        let garbage = try await makeCredential(in: store)
        let truncated = try await makeCredential(in: store)
        let tampered = try await makeCredential(in: store)
        let swapped = try await makeCredential(in: store)
        for credential in [good, garbage, truncated, tampered, swapped] {
            try await store.add(credential)
        }
        let files = Dictionary(
            uniqueKeysWithValues: [garbage, truncated, tampered, swapped].map {
                ($0.id, credentialFile($0.id, store: path))
            })
        try Data("{ this is not json".utf8).write(to: URL(fileURLWithPath: files[garbage.id]!))
        let full = try Data(contentsOf: URL(fileURLWithPath: files[truncated.id]!))
        try full.prefix(full.count / 2).write(to: URL(fileURLWithPath: files[truncated.id]!))
        try editJSON(files[tampered.id]!) { credential in
            var sealed = try Base64URL.decode(try #require(credential["sealedPrivateKey"]?.stringValue))
            sealed[sealed.count / 2] ^= 0x01
            credential["sealedPrivateKey"] = .string(Base64URL.encode(sealed))
        }
        try editJSON(files[swapped.id]!) { $0["sealedPrivateKey"] = .string(Base64URL.encode(good.privateKeyBlob)) }

        for reader in [store, try await FileCredentialStore(directory: path)] {
            for (id, file) in files {
                let error = await #expect(throws: StoreError(.corrupt, "")) { try await reader.credential(id: id) }
                #expect(error?.file == file)
                #expect(error?.description.contains(file) == true)
                #expect(error?.reason.isEmpty == false)
            }
            for listing in [try await reader.all(), try await reader.credentials(rpID: "example.com")] {
                #expect(listing.credentials.map(\.id) == [good.id])
                #expect(Set(listing.problems.compactMap(\.file)) == Set(files.values))
                #expect(listing.problems.allSatisfy { $0.code == .corrupt })
            }
            #expect(try await reader.credential(id: good.id)?.privateKeyBlob == good.privateKeyBlob)
            _ = try await reader.incrementCounter(id: good.id)
            #expect(try await signs(reader, with: good))
        }
        #expect(try await store.credential(id: good.id)?.signCount == 2)
    }

    /// `credential(id:)` keeps what it read while the file is the one it read (same inode, change
    /// time and size); a file changed in place, even to the same size, or replaced by another
    /// instance is read again.
    @Test(.temporaryDirectory) func aFileChangedAfterItWasReadIsReadAgain() async throws {
        let (path, store, credential) = try await fileStoreWithACredential()
        #expect(try await store.credential(id: credential.id) == credential)

        let other = try await FileCredentialStore(directory: path)
        #expect(try await other.incrementCounter(id: credential.id) == 1)
        #expect(try await store.credential(id: credential.id)?.signCount == 1)

        let file = credentialFile(credential.id, store: path)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        let sealed = try #require(bytes.firstRange(of: Array(Base64URL.encode(credential.privateKeyBlob).utf8)))
        bytes[sealed.lowerBound + 20] =
            bytes[sealed.lowerBound + 20] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.write(contentsOf: bytes)  // in place: the same inode and size
        try handle.close()
        await #expect(throws: StoreError(.corrupt, "")) { try await store.credential(id: credential.id) }

        try await other.delete(id: credential.id)
        #expect(try await store.credential(id: credential.id) == nil)
    }

    @Test(.temporaryDirectory) func leftoverTemporaryFilesAreIgnoredThenRemoved() async throws {
        let (path, store, credential) = try await fileStoreWithACredential()
        // What a writer killed between open(O_EXCL) and rename leaves behind.
        let leftovers = [
            path + "/credentials/.tmp-AAAAAAAAAAAA-" + Base64URL.encode(credential.id) + ".json",
            path + "/credentials/.tmp-BBBBBBBBBBBB-" + Base64URL.encode(SecureRandom.bytes(16)) + ".json",
            path + "/.tmp-CCCCCCCCCCCC-store.json",
        ]
        for leftover in leftovers {
            try Data(#"{"version":1,"credential":{"id":"#.utf8).write(to: URL(fileURLWithPath: leftover))
        }
        #expect(try await store.all() == StoreListing(credentials: [credential]))
        #expect(try await store.credential(id: credential.id) == credential)

        let reopened = try await FileCredentialStore(directory: path)
        for leftover in leftovers {
            #expect(!FileManager.default.fileExists(atPath: leftover))
        }
        #expect(try await reopened.all() == StoreListing(credentials: [credential]))
    }

    @Test(.temporaryDirectory) func incrementCounterIsDurableAcrossReopening() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let credential: StoredCredential
        do {
            let store = try await FileCredentialStore(directory: path)
            credential = try await makeCredential(in: store)
            try await store.add(credential)
            #expect(try await store.incrementCounter(id: credential.id) == 1)
            #expect(try await store.incrementCounter(id: credential.id) == 2)
        }
        let reopened = try await FileCredentialStore(directory: path)
        #expect(try await reopened.credential(id: credential.id)?.signCount == 2)
        #expect(try await reopened.incrementCounter(id: credential.id) == 3)
    }

    @Test(.temporaryDirectory) func readingNeverWrites() async throws {
        let (path, writer, credential) = try await fileStoreWithACredential()
        let reader = try await FileCredentialStore(directory: path)
        let before = try snapshot(path)
        _ = try await reader.credential(id: credential.id)
        _ = try await reader.credential(id: SecureRandom.bytes(16))
        _ = try await reader.credentials(rpID: "example.com")
        _ = try await reader.all()
        _ = try await writer.credentials(rpID: "example.com")
        #expect(try snapshot(path) == before)
    }

    /// Two instances in one process contend on the lock like two processes (flock locks belong to
    /// the open file description) and see each other's changes through the generation count.
    @Test(.temporaryDirectory) func twoInstancesSeeEachOthersChanges() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let first = try await FileCredentialStore(directory: path)
        let second = try await FileCredentialStore(directory: path)
        #expect(try await second.credentials(rpID: "example.com").credentials.isEmpty)
        let credential = try await makeCredential(in: first)
        try await first.add(credential)
        #expect(try await second.credentials(rpID: "example.com").credentials == [credential])
        try await second.delete(id: credential.id)
        #expect(try await first.credentials(rpID: "example.com").credentials.isEmpty)
        #expect(try await first.credential(id: credential.id) == nil)
    }

    @Test(.temporaryDirectory) func anIDTooLongForAFileNameIsRefused() async throws {
        let directory = try TemporaryDirectory.current
        let store = try await FileCredentialStore(directory: directory.appending("store"))
        // Refused before a key is made, and when a record made elsewhere is added.
        await #expect(throws: StoreError(.invalidCredential, "")) {
            try await makeCredential(in: store, id: SecureRandom.bytes(187))
        }
        let long = try await makeCredential(in: InMemoryCredentialStore(), id: SecureRandom.bytes(187))
        await #expect(throws: StoreError(.invalidCredential, "")) { try await store.add(long) }
        try await store.add(try await makeCredential(in: store, id: SecureRandom.bytes(186)))
    }

    @Test(.temporaryDirectory) func anIDNoFileCanBeNamedAfterIsNotFound() async throws {
        let directory = try TemporaryDirectory.current
        let store = try await FileCredentialStore(directory: directory.appending("store"))
        let long = SecureRandom.bytes(300)
        #expect(try await store.credential(id: long) == nil)
        #expect(try await store.credential(id: []) == nil)
        await #expect(throws: StoreError(.notFound, "")) { try await store.incrementCounter(id: long) }
        await #expect(throws: StoreError(.notFound, "")) { try await store.delete(id: long) }
    }

    @Test(.temporaryDirectory) func aLockHeldTooLongIsReported() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let store = try await FileCredentialStore(directory: path, lockTimeout: .milliseconds(50))
        let holder = open(path + "/.lock", O_RDWR)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        let error = await #expect(throws: StoreError(.locked, "")) { try await store.all() }
        #expect(error?.file == path + "/.lock")
        await #expect(throws: StoreError(.locked, "")) { try await store.add(try await makeCredential(in: store)) }
        flock(holder, LOCK_UN)
        #expect(try await store.all().credentials.isEmpty)
    }

    // MARK: Helpers

    /// A raw private key: 32 random bytes are a valid P-256 scalar (all but ~2^-32 of the time,
    /// retried) and a valid Ed25519 seed.
    private func rawPrivateKey(_ algorithm: COSEAlgorithm) throws -> [UInt8] {
        while true {
            let raw = SecureRandom.bytes(32)
            if (try? SigningKey(rawRepresentation: raw, algorithm: algorithm)) != nil {
                return raw
            }
        }
    }

    /// The key's PKCS#8, through the public sealing API: seal under a throw-away key, then open.
    private func exportedPKCS8(_ key: SigningKey) throws -> [UInt8] {
        let sealingKey = SecretKey.random()
        return try AESGCM.open(
            key.sealedPKCS8(using: sealingKey, authenticating: []), using: sealingKey, authenticating: [])
    }

    private func editJSON(_ path: String, _ edit: (inout JSONValue) throws -> Void) throws {
        let url = URL(fileURLWithPath: path)
        var file = try JSONValue(json: Data(contentsOf: url))
        var credential = try #require(file["credential"])
        try edit(&credential)
        file["credential"] = credential
        try Data(file.json).write(to: url)
    }

    /// Every file's path, content and modification time.
    private func snapshot(_ path: String) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for file in try filesBelow(path) {
            result[file.path] = file.bytes + (try modificationTime(file.path))
        }
        return result
    }
}
