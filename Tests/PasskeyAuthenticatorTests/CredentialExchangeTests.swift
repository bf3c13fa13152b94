import Crypto
import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// The Credential Exchange Format (CXF 1.0) and its passphrase envelope: a round trip keeps
/// every key, counting credentials are left out, and every bad input (wrong passphrase, altered
/// or truncated file, unsupported key, an ID already stored) is a typed error that changes nothing.
@Suite struct CredentialExchangeTests {
    private let passphrase = Passphrase("correct horse battery staple")

    /// A store with `count` platform passkeys for example.com.
    private func store(with count: Int) async throws -> InMemoryCredentialStore {
        let store = InMemoryCredentialStore()
        for index in 0..<count {
            try await store.add(try await makeCredential(in: store, userHandle: [UInt8(index + 1)]))
        }
        return store
    }

    @Test func aSealedExportImportsEveryKeyIntoAnotherStore() async throws {
        let source = try await store(with: 3)
        try await source.add(try await makeCredential(in: source, rpID: "other.example", key: .generate(.eddsa)))
        try await source.add(try await makeCredential(in: source, key: .generate(.rs256)))
        let (exchange, leftOut) = try await source.exportCredentialExchange()
        #expect(leftOut.isEmpty)
        #expect(exchange.passkeys.count == 5)
        let sealed = try SealedCredentialExchange.seal(exchange, passphrase: passphrase)
        for secret in exchange.passkeys.map(\.key.bytes) {
            #expect(!contains(sealed, secret))
            #expect(!contains(sealed, Array(Base64URL.encode(secret).utf8)))
        }
        let destination = InMemoryCredentialStore()
        let imported = try await destination.importCredentialExchange(
            SealedCredentialExchange.open(sealed, passphrase: passphrase), profile: .platform)
        #expect(imported.count == 5)
        for credential in try await source.all().credentials {
            let copy = try #require(try await destination.credential(id: credential.id))
            #expect(copy.publicKeySPKI == credential.publicKeySPKI)
            #expect(copy.userHandle == credential.userHandle && copy.rpID == credential.rpID)
            #expect(copy.discoverable && copy.signCount == 0)
            #expect(try await signs(destination, with: copy))
        }
        let onlyOther = try await source.exportCredentialExchange(rpID: "other.example").exchange
        #expect(onlyOther.passkeys.map(\.rpId) == ["other.example"])
    }

    @Test func theExportIsCXFJSON() async throws {
        let (exchange, _) = try await store(with: 1).exportCredentialExchange(now: Date(timeIntervalSince1970: 1000))
        let header = try JSONValue(json: SealedCredentialExchange.encode(exchange))
        #expect(header["version"] == .object(["major": .number(1), "minor": .number(0)]))
        #expect(header["timestamp"] == .number(1000))
        let item = header["accounts"]?.arrayValue?.first?["items"]?.arrayValue?.first
        let passkey = try #require(item?["credentials"]?.arrayValue?.first?.objectValue)
        #expect(
            Set(passkey.keys) == ["type", "credentialId", "rpId", "username", "userDisplayName", "userHandle", "key"])
        #expect(passkey["type"] == .string("passkey"))
        let key = try #require(passkey["key"]?.stringValue)
        #expect(try SigningKey(pkcs8: Base64URL(string: key).bytes).algorithm == .es256)
    }

    @Test func countingAndHandlelessCredentialsAreLeftOut() async throws {
        let source = try await store(with: 1)
        var counting = try await makeCredential(in: source)
        counting.signCount = 3
        try await source.add(counting)
        let serverSide = try await makeCredential(in: source, userHandle: [])
        try await source.add(serverSide)
        let (exchange, leftOut) = try await source.exportCredentialExchange()
        #expect(exchange.passkeys.count == 1)
        #expect(Set(leftOut) == [counting.id, serverSide.id])
    }

    @Test func aWrongOrMissingPassphraseAndAnAlteredFileAreRefused() async throws {
        let (exchange, _) = try await store(with: 1).exportCredentialExchange()
        let sealed = try SealedCredentialExchange.seal(exchange, passphrase: passphrase)
        #expect(throws: StoreError(.wrongPassphrase, "")) {
            try SealedCredentialExchange.open(sealed, passphrase: Passphrase("wrong"))
        }
        #expect(throws: StoreError(.wrongPassphrase, "")) { try SealedCredentialExchange.open(sealed, passphrase: nil) }
        var text = String(decoding: sealed, as: UTF8.self)
        let body = try #require(text.range(of: #""sealed":""#))
        let index = text.index(body.upperBound, offsetBy: 40)
        text.replaceSubrange(index...index, with: text[index] == "A" ? "B" : "A")
        #expect(throws: StoreError(.wrongPassphrase, "")) {
            try SealedCredentialExchange.open(Array(text.utf8), passphrase: passphrase)
        }
        for broken in [Array(sealed.prefix(sealed.count / 2)), [], Array("{\"format\":1}".utf8), Array("[]".utf8)] {
            #expect(throws: StoreError(.corrupt, "")) {
                try SealedCredentialExchange.open(broken, passphrase: passphrase)
            }
        }
        var costly = String(decoding: sealed, as: UTF8.self)
        costly = costly.replacingOccurrences(of: "\"n\":32768", with: "\"n\":1073741824")
        #expect(throws: StoreError(.corrupt, "")) {
            try SealedCredentialExchange.open(Array(costly.utf8), passphrase: passphrase)
        }
    }

    @Test func anIDAlreadyStoredRefusesTheWholeImport() async throws {
        let source = try await store(with: 2)
        let (exchange, _) = try await source.exportCredentialExchange()
        let destination = InMemoryCredentialStore()
        let existing = try #require(try await source.all().credentials.last)
        try await destination.add(try await makeCredential(in: destination, id: existing.id))
        let before = try await destination.all()
        await #expect(throws: StoreError(.duplicate, "")) {
            try await destination.importCredentialExchange(exchange, profile: .platform)
        }
        #expect(try await destination.all() == before)
        var twice = exchange
        twice.accounts[0].items.append(twice.accounts[0].items[0])
        await #expect(throws: StoreError(.duplicate, "")) {
            try await InMemoryCredentialStore().importCredentialExchange(twice, profile: .platform)
        }
    }

    @Test func aKeyOfAnUnsupportedCurveRefusesTheWholeImport() async throws {
        var (exchange, _) = try await store(with: 2).exportCredentialExchange()
        guard case .passkey(var passkey) = exchange.accounts[0].items[1].credentials[0] else {
            Issue.record("not a passkey")
            return
        }
        passkey.key = Base64URL(Array(P384.Signing.PrivateKey().derRepresentation))
        exchange.accounts[0].items[1].credentials[0] = .passkey(passkey)
        let destination = InMemoryCredentialStore()
        await #expect(throws: StoreError(.invalidCredential, "")) {
            try await destination.importCredentialExchange(exchange, profile: .platform)
        }
        #expect(try await destination.all().credentials.isEmpty)
        await #expect(throws: StoreError(.invalidCredential, "")) {
            try await destination.importCredentialExchange(exchange, profile: .securityKey)
        }
        exchange.version.major = 2
        await #expect(throws: StoreError(.unsupportedVersion, "")) {
            try await destination.importCredentialExchange(exchange, profile: .platform)
        }
    }

    @Test func otherCredentialTypesAreSkippedAndNothingLeaksInDescriptions() async throws {
        let json = """
            {"version":{"major":1,"minor":0},"exporterRpId":"vault.example","exporterDisplayName":"Vault",
             "timestamp":1,"accounts":[{"id":"AQ","username":"","email":"","collections":[],"items":[
             {"id":"Ag","title":"mail","credentials":[{"type":"basic-auth","username":{"fieldType":"string","value":"a"}}]}]}]}
            """
        let exchange = try SealedCredentialExchange.open(Array(json.utf8), passphrase: nil)
        #expect(exchange.passkeys.isEmpty)
        #expect(try await InMemoryCredentialStore().importCredentialExchange(exchange, profile: .platform).isEmpty)
        let (real, _) = try await store(with: 1).exportCredentialExchange()
        let key = Base64URL.encode(try #require(real.passkeys.first).key.bytes)
        #expect(!String(describing: real).contains(key))
        #expect(!String(describing: real.passkeys).contains(key))
    }
}
