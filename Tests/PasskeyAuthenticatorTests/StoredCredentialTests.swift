import Foundation
import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

@Suite struct StoredCredentialTests {
    @Test func jsonRoundTripIsExactAndUsesBase64URL() async throws {
        let store = InMemoryCredentialStore()
        let credential = try await makeCredential(
            in: store, createdAt: Date(timeIntervalSince1970: 1_700_000_000.1234567))
        let json = try JSONEncoder().encode(credential)
        #expect(try JSONDecoder().decode(StoredCredential.self, from: json) == credential)
        let object = try JSONValue(json: json)
        #expect(object["id"] == .string(Base64URL.encode(credential.id)))
        #expect(object["createdAt"] == .number(1_700_000_000_123))
        #expect(object["publicKey"] == .string(Base64URL.encode(credential.publicKeySPKI)))
    }

    @Test func descriptionAndDumpShowNoSealedBytes() async throws {
        let store = InMemoryCredentialStore()
        let credential = try await makeCredential(in: store)
        var dumped = ""
        dump(credential, to: &dumped)
        let sealed = [
            credential.privateKeyBlob, try #require(credential.prfSeedBlobWithUV),
            try #require(credential.prfSeedBlobWithoutUV),
        ]
        for text in [credential.description, String(reflecting: credential), dumped] {
            #expect(text.contains(Base64URL.encode(credential.id)))
            #expect(text.contains("example.com"))
            for bytes in sealed {
                #expect(!text.contains(Base64URL.encode(bytes)))
                #expect(!text.contains(bytes.map(String.init).joined(separator: ", ")))
            }
        }
    }

    /// The associated data binds a sealed key to its record: moved into another record (another
    /// ID, or the same ID under another RP), it does not open.
    @Test func aSealedKeyDoesNotOpenInAnotherRecord() async throws {
        let store = InMemoryCredentialStore()
        let donor = try await makeCredential(in: store)
        let recipient = try await makeCredential(in: store)
        let sameIDOtherRP = try await makeCredential(in: store, id: donor.id, rpID: "other.example")
        for target in [recipient, sameIDOtherRP] {
            let swapped = try transplant(donor.privateKeyBlob, into: target)
            await #expect(throws: StoreError(.corrupt, "")) { try await store.sign([1], with: swapped) }
        }
        await #expect(throws: StoreError(.corrupt, "")) { try await InMemoryCredentialStore().sign([1], with: donor) }
        #expect(try await signs(store, with: donor))
    }

    @Test func passphrasesNeverPrint() {
        let passphrase = Passphrase("correct horse battery staple")
        var dumped = ""
        dump(passphrase, to: &dumped)
        for text in [passphrase.description, String(reflecting: passphrase), dumped, "\(passphrase)"] {
            #expect(!text.contains("horse"))
        }
    }

    private func transplant(_ sealedKey: [UInt8], into credential: StoredCredential) throws -> StoredCredential {
        var object = try JSONValue(json: JSONEncoder().encode(credential))
        object["sealedPrivateKey"] = .string(Base64URL.encode(sealedKey))
        return try JSONDecoder().decode(StoredCredential.self, from: Data(object.json))
    }
}
