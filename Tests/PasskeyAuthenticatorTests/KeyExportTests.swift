import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// The software stores let a key out only when asked (``KeyExportingStore``), as PKCS#8 that
/// signs for the credential's public key and reads back to the same key.
@Suite struct KeyExportTests {
    @Test(.temporaryDirectory) func anExportedKeyIsTheCredentialsKey() async throws {
        let directory = try TemporaryDirectory.current
        let stores: [any KeyExportingStore] = [
            InMemoryCredentialStore(), try await FileCredentialStore(directory: directory.appending("store")),
        ]
        for store in stores {
            let (_, verified) = try await Ceremony(SoftwareAuthenticator(store: store)).register()
            let stored = try #require(try await store.credential(id: verified.credentialID))
            let der = try await store.exportPrivateKey(of: stored).exportedPKCS8()
            let key = try SigningKey(pkcs8: der)
            #expect(try key.publicKey.spki == stored.publicKeySPKI)
            #expect(try SigningKey(pkcs8: key.exportedPKCS8()).exportedPKCS8() == der)
        }
    }

    @Test(arguments: [[UInt8](), [0x30, 0x03, 0x02, 0x01, 0x00], Array(repeating: 0xFF, count: 64)])
    func bytesThatAreNotPKCS8AreAnInvalidKey(_ bytes: [UInt8]) {
        #expect(throws: WebAuthnError(.invalidKey, "")) { try SigningKey(pkcs8: bytes) }
    }
}
